package route

import (
	"bytes"
	"fmt"
	"math"

	"github.com/muktihari/fit/decoder"
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
// without a position (indoor, before the first fix) are skipped.
func ParseFIT(data []byte) (t *Track, err error) {
	defer func() {
		// The decoder is third-party; hostile input must not panic the program.
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("fit: malformed file (%v)", r)
		}
	}()
	dec := decoder.New(bytes.NewReader(data))
	t = &Track{Format: FIT}
	records := 0
	for dec.Next() {
		f, err := dec.Decode()
		if err != nil {
			return nil, fmt.Errorf("fit: %w", err)
		}
		var seg []Point
		for i := range f.Messages {
			if f.Messages[i].Num != mesgnum.Record {
				continue
			}
			records++
			if p, ok := fitPoint(&f.Messages[i]); ok {
				seg = append(seg, p)
			}
		}
		t.appendSegment(seg)
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
func fitPoint(m *proto.Message) (Point, bool) {
	r := mesgdef.NewRecord(m)
	lat, lon := r.PositionLatDegrees(), r.PositionLongDegrees()
	if math.IsNaN(lat) || math.IsNaN(lon) || math.IsInf(lat, 0) || math.IsInf(lon, 0) {
		return Point{}, false
	}
	ele := r.EnhancedAltitudeScaled()
	if math.IsNaN(ele) {
		ele = r.AltitudeScaled()
	}
	return newPoint(lat, lon, ele, !math.IsNaN(ele)), true
}
