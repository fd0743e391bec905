package trackfile

import (
	"encoding/binary"
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
