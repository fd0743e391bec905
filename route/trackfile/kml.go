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

// ParseKML reads a KML file (Google Earth): every <LineString> becomes a
// segment of its <coordinates> ("lon,lat[,alt]" tuples separated by
// white space), and every <gx:Track> a segment of its <gx:coord> elements
// ("lon lat alt"; an empty one, a pause, ends the segment). Points,
// polygons and placemarks without a line are not part of a route.
// Elements are matched by local name, whatever their namespace prefix.
func ParseKML(data []byte) (*track.Track, error) {
	d := newXMLDecoder(data)
	t := &track.Track{Format: track.KML}
	var seg []track.Point
	inLine, inTrack, lines, placemarks := false, false, 0, 0
	name := "" // the placemark's: which altitude a glider's copies hold
	add := func(s []track.Point) {
		if len(s) > 0 {
			t.Segments = append(t.Segments, s)
			t.Labels = append(t.Labels, name)
		}
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("kml: %w", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "Placemark":
				placemarks++
				name = ""
			case "name":
				if placemarks > 0 && !inLine && !inTrack {
					if err := d.DecodeElement(&name, &el); err != nil {
						return nil, fmt.Errorf("kml: placemark %d: name: %w", placemarks, err)
					}
					name = strings.TrimSpace(name)
				}
			case "LineString":
				inLine, lines = true, lines+1
			case "Track":
				inTrack, lines = true, lines+1
				add(seg)
				seg = nil
			case "coordinates":
				if !inLine {
					continue
				}
				var text string
				if err := d.DecodeElement(&text, &el); err != nil {
					return nil, fmt.Errorf("kml: LineString %d: %w", lines, err)
				}
				pts, err := kmlTuples(text)
				if err != nil {
					return nil, fmt.Errorf("kml: LineString %d: %w", lines, err)
				}
				add(pts)
			case "coord":
				if !inTrack {
					continue
				}
				var text string
				if err := d.DecodeElement(&text, &el); err != nil {
					return nil, fmt.Errorf("kml: gx:Track %d: %w", lines, err)
				}
				f := strings.Fields(text)
				if len(f) == 0 {
					// No position for this time: OpenTracks writes
					// <gx:coord/> where a recording paused or resumed.
					add(seg)
					seg = nil
					continue
				}
				p, err := kmlPoint(f)
				if err != nil {
					return nil, fmt.Errorf("kml: gx:Track %d: gx:coord %q: %w", lines, text, err)
				}
				seg = append(seg, p)
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "LineString":
				inLine = false
			case "Track":
				inTrack = false
				add(seg)
				seg = nil
			}
		}
	}
	if lines == 0 {
		return nil, fmt.Errorf("kml: no <LineString> or <gx:Track> in %d placemark(s): points and polygons are not a route", placemarks)
	}
	return t, nil
}

// kmlTuples reads a <coordinates> text: "lon,lat[,alt]" tuples separated
// by white space.
func kmlTuples(text string) ([]track.Point, error) {
	var pts []track.Point
	for _, tuple := range strings.Fields(text) {
		p, err := kmlPoint(strings.Split(tuple, ","))
		if err != nil {
			return nil, fmt.Errorf("coordinates %q: %w", tuple, err)
		}
		pts = append(pts, p)
	}
	return pts, nil
}

// kmlPoint reads lon, lat and an optional altitude.
func kmlPoint(f []string) (track.Point, error) {
	if len(f) < 2 || len(f) > 3 {
		return track.Point{}, errors.New("want longitude, latitude and an optional altitude")
	}
	var v [3]float64
	for i, s := range f {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return track.Point{}, fmt.Errorf("%q is not a number", s)
		}
		v[i] = x
	}
	return newPoint(v[1], v[0], v[2], len(f) == 3), nil
}
