package route

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/tkrajina/gpxgo/gpx"
	"golang.org/x/net/html/charset"
)

// ParseGPX reads a GPX 1.0 or 1.1 file with gpxgo: every track segment
// becomes a segment; a file without track points falls back to its routes
// (<rte>). Waypoints are not part of a route. Elements may carry any
// namespace prefix; points may lack a time or an elevation.
func ParseGPX(data []byte) (t *Track, err error) {
	defer func() {
		// gpxgo is a third-party parser; a panic on hostile input must not
		// take the program down.
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("gpx: malformed file (%v)", r)
		}
	}()
	g, err := gpx.ParseBytes(data)
	if err != nil {
		return nil, fmt.Errorf("gpx: %w", err)
	}
	t = &Track{Format: GPX}
	for _, trk := range g.Tracks {
		for _, s := range trk.Segments {
			seg := make([]Point, 0, len(s.Points))
			for _, p := range s.Points {
				seg = append(seg, newPoint(p.Latitude, p.Longitude, p.Elevation.Value(), !p.Elevation.Null()))
			}
			t.appendSegment(seg)
		}
	}
	if len(t.Segments) == 0 {
		for _, rte := range g.Routes {
			seg := make([]Point, 0, len(rte.Points))
			for _, p := range rte.Points {
				seg = append(seg, newPoint(p.Latitude, p.Longitude, p.Elevation.Value(), !p.Elevation.Null()))
			}
			t.appendSegment(seg)
		}
	}
	if len(t.Segments) == 0 && len(g.Waypoints) > 0 {
		return nil, fmt.Errorf("gpx: only %d waypoint(s) (<wpt>), no track (<trk>) or route (<rte>): waypoints mark places, not the path between them; export the track instead", len(g.Waypoints))
	}
	return t, nil
}

// xmlRoot returns the local name of an XML document's root element, or ""
// if none can be read.
func xmlRoot(data []byte) string {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel
	d.Strict = false
	for range 64 { // the prolog: declaration, comments, doctype
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
	return ""
}
