package route

import (
	"encoding/binary"
	"testing"

	"github.com/muktihari/fit/kit/hash/crc16"
)

// A jump of 35 m between two fixes 20 m apart (a grade of 175 %) on level
// ground is a step, as every jump steeper than 100 % is: no path climbs
// that steeply, and a map asked to would miss the track by half the jump
// on one side (with the threshold at 200 % it was left, and the map
// missed its track by 11.9 m).
func TestStepJustSteeperThanAPathRepaired(t *testing.T) {
	seg := make([]Sample, 120)
	for i := range seg {
		e := 100.0
		if i >= 60 {
			e = 135
		}
		seg[i] = Sample{X: 20 * float64(i), Ele: e}
	}
	var p Path
	p.repairSteps([][]Sample{seg})
	if len(p.Repairs) != 1 || p.Repairs[0].Kind != "step" {
		t.Fatalf("repairs %+v, want the 35 m jump over 20 m repaired as one step", p.Repairs)
	}
	if g := (seg[60].Ele - seg[59].Ele) / 20; g > 1 {
		t.Errorf("after the repair the track still climbs %.0f %% between the two fixes", 100*g)
	}
}

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
