package trackfile

import (
	"bytes"
	"cordillera/route/track"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/net/html/charset"
)

// ParseGPX reads a GPX 1.0 or 1.1 file: every track segment (<trkseg>)
// becomes a segment; a file without track points falls back to its
// routes (<rte>). Waypoints are not part of a route. Elements are matched
// by local name, whatever their namespace prefix; points may lack a time
// or an elevation. The file is read as a stream of tokens, so memory
// follows the points kept (a document tree of a 64 MB file took 1.4 GB),
// and an error names the point: its number among the file's points of
// its kind, and its line.
func ParseGPX(data []byte) (*track.Track, error) {
	d := newXMLDecoder(data)
	t := &track.Track{Format: track.GPX}
	var trkSeg, rteSeg []track.Point
	var routes [][]track.Point
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := d.InputPos()
		if err != nil {
			return nil, fmt.Errorf("gpx: line %d: %w", line, err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			kind := el.Name.Local
			switch kind {
			case "trkpt", "rtept":
				count[kind]++
				p, err := gpxPoint(d, el)
				if err != nil {
					return nil, fmt.Errorf("gpx: %s %d (line %d): %w", gpxPointKinds[kind], count[kind], line, err)
				}
				if kind == "trkpt" {
					trkSeg = append(trkSeg, p)
				} else {
					rteSeg = append(rteSeg, p)
				}
			case "wpt":
				count[kind]++
				if err := d.Skip(); err != nil {
					return nil, fmt.Errorf("gpx: waypoint %d (line %d): %w", count[kind], line, err)
				}
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "trkseg", "trk":
				appendSegment(t, trkSeg)
				trkSeg = nil
			case "rte":
				if len(rteSeg) > 0 {
					routes = append(routes, rteSeg)
				}
				rteSeg = nil
			}
		}
	}
	appendSegment(t, trkSeg)
	if len(t.Segments) == 0 {
		t.Segments = routes
	}
	if len(t.Segments) == 0 && count["wpt"] > 0 {
		return nil, fmt.Errorf("gpx: only %d waypoint(s) (<wpt>), no track (<trk>) or route (<rte>): waypoints mark places, not the path between them; export the track instead", count["wpt"])
	}
	return t, nil
}

// gpxPointKinds names the GPX point elements for messages.
var gpxPointKinds = map[string]string{"trkpt": "track point", "rtept": "route point", "wpt": "waypoint"}

// gpxPoint reads a <trkpt> or <rtept> whose start el has been read: its
// lat and lon attributes and its <ele>, skipping everything else.
func gpxPoint(d *xmlDecoder, el xml.StartElement) (track.Point, error) {
	var lat, lon *float64
	for _, a := range el.Attr {
		var dst **float64
		switch a.Name.Local {
		case "lat":
			dst = &lat
		case "lon":
			dst = &lon
		default:
			continue
		}
		v, err := parseNumber(a.Value)
		if err != nil {
			return track.Point{}, fmt.Errorf("%s %q %v", a.Name.Local, a.Value, err)
		}
		*dst = &v
	}
	if lat == nil || lon == nil {
		return track.Point{}, errors.New("no lat and lon attributes")
	}
	ele, hasEle := 0.0, false
	for {
		tok, err := d.Token()
		if err != nil {
			return track.Point{}, err
		}
		switch c := tok.(type) {
		case xml.StartElement:
			if c.Name.Local != "ele" {
				if err := d.Skip(); err != nil {
					return track.Point{}, err
				}
				continue
			}
			var text string
			if err := d.DecodeElement(&text, &c); err != nil {
				return track.Point{}, err
			}
			if text = strings.TrimSpace(text); text == "" {
				continue
			}
			if ele, err = parseNumber(text); err != nil {
				return track.Point{}, fmt.Errorf("<ele> %q %v", text, err)
			}
			hasEle = true
		case xml.EndElement:
			return newPoint(*lat, *lon, ele, hasEle), nil
		}
	}
}

// parseNumber reads a decimal number; its error says why s is not one.
// NaN and infinities are numbers here: newPoint counts them as missing.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, errors.New("is out of range")
	case err != nil:
		return 0, errors.New("is not a number")
	}
	return v, nil
}

// xmlRoot returns the local name of an XML document's root element, or ""
// if none can be read.
func xmlRoot(data []byte) string {
	d := newXMLDecoder(data)
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

// newXMLDecoder decodes data as XML in whichever character set its
// declaration names, refusing elements nested deeper than maxXMLDepth.
func newXMLDecoder(data []byte) *xmlDecoder {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel
	return &xmlDecoder{Decoder: d}
}

// maxXMLDepth bounds how deeply a route file's elements may nest. Real
// GPX, TCX and KML files nest under 20 deep (KML folders a little more);
// xml.Decoder keeps every open element, so a small file of millions of
// nested elements would otherwise take gigabytes before failing.
const maxXMLDepth = 1000

// xmlDecoder is an xml.Decoder that counts how deeply its elements nest.
// Token, Skip and DecodeElement are the only ways the parsers read, so the
// count stays true (DecodeElement has the standard library's own bound).
type xmlDecoder struct {
	*xml.Decoder
	depth int
}

func (d *xmlDecoder) Token() (xml.Token, error) {
	tok, err := d.Decoder.Token()
	switch tok.(type) {
	case xml.StartElement:
		if d.depth++; d.depth > maxXMLDepth {
			return nil, fmt.Errorf("elements nested more than %d deep", maxXMLDepth)
		}
	case xml.EndElement:
		d.depth--
	}
	return tok, err
}

// Skip reads to the end of the element whose start was just read.
func (d *xmlDecoder) Skip() error {
	for open := 0; ; {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			open++
		case xml.EndElement:
			if open == 0 {
				return nil
			}
			open--
		}
	}
}

// DecodeElement decodes the element whose start was just read, through
// its end.
func (d *xmlDecoder) DecodeElement(v any, start *xml.StartElement) error {
	err := d.Decoder.DecodeElement(v, start)
	d.depth--
	return err
}
