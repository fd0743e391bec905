package trackfile

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/muktihari/fit/kit/hash/crc16"
)

// fitBlock is a FIT file of a 14-byte header whose checksum field is
// headerCRC, some data, and the data's checksum over header and data.
func fitBlock(headerCRC uint16) []byte {
	data := []byte{0x40, 0, 0, 0, 0, 1, 0, 1, 4, 0x00, 0x01}
	b := []byte{14, 0x20}
	b = binary.LittleEndian.AppendUint16(b, 2132)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, ".FIT"...)
	b = binary.LittleEndian.AppendUint16(b, headerCRC)
	b = append(b, data...)
	h := crc16.New(nil)
	h.Write(b)
	return binary.LittleEndian.AppendUint16(b, h.Sum16())
}

// The FIT protocol lets a 14-byte header leave its checksum at 0 (many
// devices do): such a file is sound and draws no warning; a header whose
// non-zero checksum does not match does.
func TestFITHeaderChecksumZeroIsSound(t *testing.T) {
	if w := fitChecksums(fitBlock(0)); len(w) != 0 {
		t.Errorf("a header checksum of 0 drew %q; want no warning", w)
	}
	if w := fitChecksums(fitBlock(0x1234)); len(w) != 1 {
		t.Errorf("a wrong header checksum drew %q; want one warning", w)
	}
}

// fitBlockOf is fitBlock with data of the caller's.
func fitBlockOf(headerCRC uint16, data []byte) []byte {
	b := []byte{14, 0x20}
	b = binary.LittleEndian.AppendUint16(b, 2132)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, ".FIT"...)
	b = binary.LittleEndian.AppendUint16(b, headerCRC)
	b = append(b, data...)
	h := crc16.New(nil)
	h.Write(b)
	return binary.LittleEndian.AppendUint16(b, h.Sum16())
}

// A damaged file in a chain is named by its place in the chain and its
// size, and the sound files around it draw nothing: a user told "file 2"
// knows which recording to distrust.
func TestFITChecksumNamesTheDamagedFile(t *testing.T) {
	bad := fitBlock(0)
	bad[len(bad)-1] ^= 0xff
	chain := append(append(append([]byte{}, fitBlock(0)...), bad...), fitBlock(0)...)
	w := fitChecksums(chain)
	if len(w) != 1 {
		t.Fatalf("a chain of three files, the second damaged, drew %q; want one warning", w)
	}
	if want := "fit: file 2: the checksum"; !strings.HasPrefix(w[0], want) {
		t.Errorf("the warning is %q; want it to start %q", w[0], want)
	}
	if want := "does not match its 25 bytes"; !strings.Contains(w[0], want) {
		t.Errorf("the warning is %q; want it to say %q (14-byte header and 11 bytes of data)", w[0], want)
	}
	// An empty file's checksum is checked too.
	empty := fitBlockOf(0, nil)
	empty[len(empty)-1] ^= 0xff
	if w := fitChecksums(empty); len(w) != 1 {
		t.Errorf("an empty FIT file with a wrong checksum drew %q; want one warning", w)
	}
}

// A file cut short anywhere, its checksum missing, is left to the
// decoder to report: the checksum pass neither warns nor reads past the
// end; only a header whole enough to check is checked. Cut right after its 12 first bytes it is still known as FIT, so the
// error a user gets is about a FIT file.
func TestFITCutShort(t *testing.T) {
	whole := fitBlock(0)
	for n := range len(whole) {
		if w := fitChecksums(whole[:n]); len(w) != 0 {
			t.Errorf("the file cut to %d of %d bytes drew %q; want no checksum warning", n, len(whole), w)
		}
	}
	// Its header alone is checked: a wrong header checksum is reported.
	if w := fitChecksums(fitBlock(0x1234)[:14]); len(w) != 1 {
		t.Errorf("a 14-byte header alone with a wrong checksum drew %q; want one warning", w)
	}
	if !isFIT(whole[:12]) {
		t.Error("the first 12 bytes of a FIT file are not recognised as FIT")
	}
	if isFIT(whole[:11]) {
		t.Error("11 bytes, shorter than any FIT header, are recognised as FIT")
	}
}
