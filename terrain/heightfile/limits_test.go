package heightfile

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// Every format checks width × height from its header against
// MaxFileSamples, not each side alone: a small file declaring 16385²
// samples used to be decoded into gigabytes (and 1×1 maps into empty sky).
func TestHeadersOverTheSampleLimit(t *testing.T) {
	var tif, exr bytes.Buffer
	if err := EncodeTIFF(&tif, randomHeightmap(9, 9, 2), 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := EncodeEXR(&exr, randomHeightmap(9, 9, 2), 0); err != nil {
		t.Fatal(err)
	}
	for _, side := range []int{16385, 1} {
		want := "16385×16385 = 268.5 M samples, over the limit of 67.1 M"
		if side == 1 {
			want = "1×1; each side must be between 2 and 16385"
		}
		src, err := DecodeTIFF(bytes.NewReader(tiffWithSize(t, tif.Bytes(), side)), int64(tif.Len()))
		if err == nil || src != nil || !strings.Contains(err.Error(), "tiff: image is "+want) {
			t.Errorf("TIFF of %d²: error %v, want %q", side, err, want)
		}
		src, err = DecodeEXR(bytes.NewReader(exrWithSize(t, exr.Bytes(), side)), int64(exr.Len()))
		if err == nil || src != nil || !strings.Contains(err.Error(), "exr: image is "+want) {
			t.Errorf("EXR of %d²: error %v, want %q", side, err, want)
		}
	}
}

// tiffWithSize patches the ImageWidth and ImageLength tags of a
// little-endian TIFF.
func tiffWithSize(t *testing.T, file []byte, side int) []byte {
	t.Helper()
	b := append([]byte(nil), file...)
	le := binary.LittleEndian
	ifd := int(le.Uint32(b[4:]))
	n := int(le.Uint16(b[ifd:]))
	patched := 0
	for i := range n {
		e := b[ifd+2+12*i:]
		if tag := le.Uint16(e); tag == 256 || tag == 257 {
			switch le.Uint16(e[2:]) {
			case 3:
				le.PutUint16(e[8:], uint16(side))
			case 4:
				le.PutUint32(e[8:], uint32(side))
			}
			patched++
		}
	}
	if patched != 2 {
		t.Fatalf("found %d size tags", patched)
	}
	return b
}

// exrWithSize patches an EXR's dataWindow (and displayWindow) to side².
func exrWithSize(t *testing.T, file []byte, side int) []byte {
	t.Helper()
	b := append([]byte(nil), file...)
	patched := 0
	for _, name := range []string{"dataWindow\x00box2i\x00", "displayWindow\x00box2i\x00"} {
		i := bytes.Index(b, []byte(name))
		if i < 0 {
			continue
		}
		box := b[i+len(name)+4:]
		binary.LittleEndian.PutUint32(box[0:], 0)
		binary.LittleEndian.PutUint32(box[4:], 0)
		binary.LittleEndian.PutUint32(box[8:], uint32(side-1))
		binary.LittleEndian.PutUint32(box[12:], uint32(side-1))
		patched++
	}
	if patched == 0 {
		t.Fatal("no dataWindow in the EXR")
	}
	return b
}
