package trackfile

import (
	"bytes"
	"cordillera/route/track"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/muktihari/fit/decoder"
	"github.com/muktihari/fit/kit/hash/crc16"
	"github.com/muktihari/fit/profile/mesgdef"
	"github.com/muktihari/fit/profile/untyped/mesgnum"
	"github.com/muktihari/fit/proto"
)

// isFIT reports whether data starts with a FIT file header: its size (12
// or 14 bytes) and ".FIT" at bytes 8–11.
func isFIT(data []byte) bool {
	return len(data) >= 12 && (data[0] == 12 || data[0] == 14) && string(data[8:12]) == ".FIT"
}

// ParseFIT reads a Garmin FIT activity or course file with
// github.com/muktihari/fit: the positioned record messages, in order, are
// one segment, with enhanced_altitude (or altitude) as the elevation.
// Chained FIT files are read one after another, each a segment. Records
// without a position (indoor, before the first fix) are skipped. The
// checksums are checked here (fitChecksums), not by the decoder: a file
// whose checksum does not match but whose messages decode is read, with
// a warning naming the checksum (Track.Warnings), as GPSBabel reads it;
// one that does not decode is refused, naming the checksum as well.
func ParseFIT(data []byte) (t *track.Track, err error) {
	defer func() {
		// The decoder is third-party; hostile input must not panic the program.
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("fit: malformed file (%v)", r)
		}
	}()
	damaged := fitChecksums(data)
	dec := decoder.New(bytes.NewReader(data), decoder.WithIgnoreChecksum())
	t = &track.Track{Format: track.FIT, Warnings: damaged}
	records := 0
	for dec.Next() {
		f, err := dec.Decode()
		if err != nil {
			if len(damaged) > 0 {
				return nil, fmt.Errorf("fit: %w (%s)", err, damaged[0])
			}
			return nil, fmt.Errorf("fit: %w", err)
		}
		var seg []track.Point
		for i := range f.Messages {
			if f.Messages[i].Num != mesgnum.Record {
				continue
			}
			records++
			if p, ok := fitPoint(&f.Messages[i]); ok {
				seg = append(seg, p)
			}
		}
		appendSegment(t, seg)
	}
	if records == 0 {
		return nil, fmt.Errorf("fit: no record messages: not an activity or a course")
	}
	if len(t.Segments) == 0 {
		return nil, fmt.Errorf("fit: none of the %d records has a position (an indoor activity?)", records)
	}
	return t, nil
}

// fitPoint converts a record message; ok is false without a position.
func fitPoint(m *proto.Message) (track.Point, bool) {
	r := mesgdef.NewRecord(m)
	lat, lon := r.PositionLatDegrees(), r.PositionLongDegrees()
	if math.IsNaN(lat) || math.IsNaN(lon) || math.IsInf(lat, 0) || math.IsInf(lon, 0) {
		return track.Point{}, false
	}
	ele := r.EnhancedAltitudeScaled()
	if math.IsNaN(ele) {
		ele = r.AltitudeScaled()
	}
	return newPoint(lat, lon, ele, !math.IsNaN(ele)), true
}

// fitChecksums checks the CRCs of each FIT file in data (chained files
// follow one another): a 14-byte header's own, unless it is 0 (not
// computed), and the file's, over the header and the data records as the
// FIT protocol defines it. The decoder (github.com/muktihari/fit v0.24.5
// and v0.26.1) computes the file's over the data records alone, which
// agrees only after a 14-byte header with its CRC (the CRC of a block
// ending in its own CRC is 0), and refused the FIT SDK's own Activity.fit
// (a 12-byte header) and a Garmin Edge 500 and Edge 810's activities; a
// file whose CRC covers the data alone is taken as well. It returns one
// warning per checksum that does not match. A file that ends early is
// left to the decoder to report.
func fitChecksums(data []byte) []string {
	h := crc16.New(nil)
	sum := func(b []byte) uint16 {
		h.Reset()
		_, _ = h.Write(b)
		return h.Sum16()
	}
	var warnings []string
	for k, rest := 1, data; isFIT(rest); k++ {
		hs := int(rest[0])
		size := int(binary.LittleEndian.Uint32(rest[4:8]))
		if len(rest) < hs {
			return warnings // the decoder reports a header cut short
		}
		if hs == 14 {
			if want := binary.LittleEndian.Uint16(rest[12:14]); want != 0 && sum(rest[:12]) != want {
				warnings = append(warnings, fmt.Sprintf("fit: file %d: the header's checksum %#04x does not match the header (%#04x): the file may be damaged; read as it decodes", k, want, sum(rest[:12])))
			}
		}
		if size < 0 || len(rest)-hs-2 < size {
			return warnings
		}
		want := binary.LittleEndian.Uint16(rest[hs+size:])
		if whole := sum(rest[:hs+size]); want != whole && want != sum(rest[hs:hs+size]) {
			warnings = append(warnings, fmt.Sprintf("fit: file %d: the checksum %#04x does not match its %d bytes (%#04x): the file may be damaged; read as it decodes", k, want, hs+size, whole))
		}
		rest = rest[hs+size+2:]
	}
	return warnings
}
