package trackfile

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cordillera/route/track"
)

// tcxTrackpoint is the part of a TCX <Trackpoint> a route needs.
type tcxTrackpoint struct {
	Lat      *string `xml:"Position>LatitudeDegrees"`
	Lon      *string `xml:"Position>LongitudeDegrees"`
	Altitude *string `xml:"AltitudeMeters"`
}

// ParseTCX reads a Garmin Training Center file: every <Track> (of an
// activity's laps or of a course) becomes a segment of its <Trackpoint>s,
// with Position/LatitudeDegrees, Position/LongitudeDegrees and
// AltitudeMeters. Trackpoints without a position (a pause, a lost fix) are
// skipped. Elements are matched by local name, whatever their namespace.
func ParseTCX(data []byte) (*track.Track, error) {
	d := newXMLDecoder(data)
	t := &track.Track{Format: track.TCX}
	var seg []track.Point
	n := 0
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("tcx: %w", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "Track":
				appendSegment(t, seg)
				seg = nil
			case "Trackpoint":
				n++
				var tp tcxTrackpoint
				if err := d.DecodeElement(&tp, &el); err != nil {
					return nil, fmt.Errorf("tcx: trackpoint %d: %w", n, err)
				}
				p, ok, err := tp.point()
				if err != nil {
					return nil, fmt.Errorf("tcx: trackpoint %d: %w", n, err)
				}
				if ok {
					seg = append(seg, p)
				}
			}
		case xml.EndElement:
			if el.Name.Local == "Track" {
				appendSegment(t, seg)
				seg = nil
			}
		}
	}
	appendSegment(t, seg)
	return t, nil
}

// point converts a trackpoint; ok is false when it has no position.
func (tp tcxTrackpoint) point() (p track.Point, ok bool, err error) {
	if tp.Lat == nil || tp.Lon == nil {
		return track.Point{}, false, nil
	}
	lat, err := strconv.ParseFloat(strings.TrimSpace(*tp.Lat), 64)
	if err != nil {
		return track.Point{}, false, fmt.Errorf("LatitudeDegrees %q is not a number", *tp.Lat)
	}
	lon, err := strconv.ParseFloat(strings.TrimSpace(*tp.Lon), 64)
	if err != nil {
		return track.Point{}, false, fmt.Errorf("LongitudeDegrees %q is not a number", *tp.Lon)
	}
	var ele float64
	hasEle := tp.Altitude != nil
	if hasEle {
		if ele, err = strconv.ParseFloat(strings.TrimSpace(*tp.Altitude), 64); err != nil {
			return track.Point{}, false, fmt.Errorf("AltitudeMeters %q is not a number", *tp.Altitude)
		}
	}
	return newPoint(lat, lon, ele, hasEle), true, nil
}
