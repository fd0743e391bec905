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
	k := &kmlReader{d: d, t: &track.Track{Format: track.KML}}
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
			if err := k.start(&el); err != nil {
				return nil, err
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "LineString":
				k.inLine = false
			case "Track":
				k.inTrack = false
				k.endSegment()
			}
		}
	}
	if k.lines == 0 {
		return nil, fmt.Errorf("kml: no <LineString> or <gx:Track> in %d placemark(s): points and polygons are not a route", k.placemarks)
	}
	return k.t, nil
}

// kmlReader is where ParseKML is in a file: inside a <LineString> or a
// <gx:Track>, the lines and placemarks so far, and the gx:Track's
// segment being read.
type kmlReader struct {
	d                 *xmlDecoder
	t                 *track.Track
	seg               []track.Point
	inLine, inTrack   bool
	lines, placemarks int
	name              string // the placemark's: which altitude a glider's copies hold
}

// add makes s a segment of the track, named after its placemark, unless
// it is empty.
func (k *kmlReader) add(s []track.Point) {
	if len(s) > 0 {
		k.t.Segments = append(k.t.Segments, s)
		k.t.Labels = append(k.t.Labels, k.name)
	}
}

// endSegment ends the gx:Track's segment being read.
func (k *kmlReader) endSegment() {
	k.add(k.seg)
	k.seg = nil
}

// start reads the element el starts, where it is one a route is made of.
func (k *kmlReader) start(el *xml.StartElement) error {
	switch el.Name.Local {
	case "Placemark":
		k.placemarks++
		k.name = ""
	case "name":
		if k.placemarks > 0 && !k.inLine && !k.inTrack {
			if err := k.d.DecodeElement(&k.name, el); err != nil {
				return fmt.Errorf("kml: placemark %d: name: %w", k.placemarks, err)
			}
			k.name = strings.TrimSpace(k.name)
		}
	case "LineString":
		k.inLine, k.lines = true, k.lines+1
	case "Track":
		k.inTrack, k.lines = true, k.lines+1
		k.endSegment()
	case "coordinates":
		if k.inLine {
			return k.coordinates(el)
		}
	case "coord":
		if k.inTrack {
			return k.coord(el)
		}
	}
	return nil
}

// coordinates reads a LineString's <coordinates> as a segment.
func (k *kmlReader) coordinates(el *xml.StartElement) error {
	var text string
	if err := k.d.DecodeElement(&text, el); err != nil {
		return fmt.Errorf("kml: LineString %d: %w", k.lines, err)
	}
	pts, err := kmlTuples(text)
	if err != nil {
		return fmt.Errorf("kml: LineString %d: %w", k.lines, err)
	}
	k.add(pts)
	return nil
}

// coord reads a gx:Track's <gx:coord> onto its segment.
func (k *kmlReader) coord(el *xml.StartElement) error {
	var text string
	if err := k.d.DecodeElement(&text, el); err != nil {
		return fmt.Errorf("kml: gx:Track %d: %w", k.lines, err)
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		// No position for this time: OpenTracks writes
		// <gx:coord/> where a recording paused or resumed.
		k.endSegment()
		return nil
	}
	p, err := kmlPoint(f)
	if err != nil {
		return fmt.Errorf("kml: gx:Track %d: gx:coord %q: %w", k.lines, text, err)
	}
	k.seg = append(k.seg, p)
	return nil
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
