// Package trackfile reads route files into a track.Track: GPX 1.0 and
// 1.1, TCX, KML, FIT, GeoJSON and CSV, recognised from the content rather
// than the file name (Detect).
//
// Parse checks every position and counts non-finite elevations as
// missing; Load reads a file at most MaxFileSize long and checks that the
// track is usable (track.Track.Check). The parsers know nothing of maps:
// package track prepares what they read.
package trackfile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"cordillera/internal/inputfile"
	"cordillera/route/track"
)

// MaxFileSize bounds what Load reads: a day-long track logged every second
// is a few megabytes, so a file much larger than this is not a route.
const MaxFileSize = 64 << 20

// parser is a format Parse reads.
type parser struct {
	format track.Format
	name   string
	parse  func([]byte) (*track.Track, error)
}

// parsers are the formats Parse reads, each with its name in messages
// and help and its parser: the one list every format list is made from
// (FormatNames).
var parsers = []parser{
	{track.GPX, "GPX", ParseGPX},
	{track.TCX, "TCX", ParseTCX},
	{track.KML, "KML", ParseKML},
	{track.FIT, "FIT", ParseFIT},
	{track.GeoJSON, "GeoJSON", ParseGeoJSON},
	{track.CSV, "CSV", ParseCSV},
}

// FormatNames lists the formats Parse reads, as text joined by sep and,
// before the last, last: FormatNames(", ", " or ") is "GPX, TCX, KML,
// FIT, GeoJSON or CSV".
func FormatNames(sep, last string) string {
	s := ""
	for i, p := range parsers {
		switch {
		case i == 0:
		case i == len(parsers)-1:
			s += last
		default:
			s += sep
		}
		s += p.name
	}
	return s
}

// ErrUnknownFormat is returned (wrapped) for content none of the parsers
// recognise.
var ErrUnknownFormat = errors.New("not a " + FormatNames(", ", " or ") + " route")

// extensions are the file name suffixes each format goes by.
var extensions = map[string]track.Format{
	".gpx": track.GPX, ".tcx": track.TCX, ".kml": track.KML, ".fit": track.FIT,
	".geojson": track.GeoJSON, ".json": track.GeoJSON, ".csv": track.CSV, ".txt": track.CSV, ".tsv": track.CSV,
}

// Load reads and parses the route file at path, and checks that it has
// enough points to build a terrain from (Track.Check). Errors start with
// the path.
func Load(path string) (*track.Track, error) {
	// Only a regular file of at most MaxFileSize: a FIFO would block
	// forever, a device never end.
	data, err := inputfile.ReadAll(path, MaxFileSize, "a route file")
	if err != nil {
		return nil, err
	}
	t, err := Parse(data)
	if err == nil {
		err = t.Check()
	}
	if err != nil {
		// Only where the name promises a format the content does not have.
		if f, ok := extensions[strings.ToLower(filepath.Ext(path))]; ok && errors.Is(err, ErrUnknownFormat) {
			err = fmt.Errorf("%w (the name says %s, the content is not %s)", err, filepath.Ext(path), strings.ToUpper(string(f)))
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Parse reads a route in whichever format its content shows: XML with a
// <gpx> root is GPX, with a <TrainingCenterDatabase> root TCX, with a
// <kml> root KML; a FIT file header is FIT; a JSON
// object is GeoJSON; text whose first line names latitude and longitude
// columns is CSV. Points with a non-finite or out-of-range position are
// errors; points without a position (TCX) are skipped. It does not check
// that the track is usable: see Check.
func Parse(data []byte) (*track.Track, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	var t *track.Track
	var err error
	f := Detect(data)
	i := slices.IndexFunc(parsers, func(p parser) bool { return p.format == f })
	if f == "" || i < 0 {
		return nil, describeUnknown(data)
	}
	if t, err = parsers[i].parse(data); err != nil {
		return nil, err
	}
	for s, seg := range t.Segments {
		for i, p := range seg {
			if err := checkPosition(p); err != nil {
				return nil, fmt.Errorf("%s: segment %d, point %d: %w", t.Format, s+1, i+1, err)
			}
			if !p.HasEle && p.Ele != 0 { // newPoint kept a NaN or Inf to be counted here
				t.NonFinite++
				seg[i].Ele = 0
			}
		}
	}
	return t, nil
}

// Detect names the format of a route file from its first bytes, or returns
// "" when it is none of them.
func Detect(data []byte) track.Format {
	if isFIT(data) {
		return track.FIT
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	head := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case len(head) == 0:
		return ""
	case head[0] == '<':
		switch xmlRoot(head) {
		case "gpx":
			return track.GPX
		case "TrainingCenterDatabase":
			return track.TCX
		case "kml":
			return track.KML
		}
		return ""
	case head[0] == '{':
		return track.GeoJSON
	}
	if _, err := csvHeader(head); err == nil {
		return track.CSV
	}
	return ""
}

// describeUnknown says what an unrecognised file looks like.
func describeUnknown(data []byte) error {
	head := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case len(head) == 0:
		return errors.New("empty file")
	case head[0] == '<':
		if root := xmlRoot(head); root != "" {
			return fmt.Errorf("%w: XML whose root element is <%s>", ErrUnknownFormat, root)
		}
		return fmt.Errorf("%w: XML without a root element", ErrUnknownFormat)
	case head[0] == '[':
		return fmt.Errorf("%w: a JSON array (GeoJSON is an object)", ErrUnknownFormat)
	case isBinary(head):
		n := min(len(head), 8)
		return fmt.Errorf("%w: binary data starting %q", ErrUnknownFormat, head[:n])
	}
	if _, err := csvHeader(head); err != nil {
		return fmt.Errorf("%w: as CSV, %v", ErrUnknownFormat, err)
	}
	return ErrUnknownFormat
}

func checkPosition(p track.Point) error {
	switch {
	case math.IsNaN(p.Lat) || math.IsInf(p.Lat, 0) || p.Lat < -90 || p.Lat > 90:
		return fmt.Errorf("latitude %v is not in [-90, 90]", p.Lat)
	case math.IsNaN(p.Lon) || math.IsInf(p.Lon, 0) || p.Lon < -180 || p.Lon > 180:
		return fmt.Errorf("longitude %v is not in [-180, 180]", p.Lon)
	case p.HasEle && math.Abs(p.Ele) > maxElevation:
		return fmt.Errorf("elevation %v m is not a height on Earth", p.Ele)
	}
	return nil
}

// newPoint makes a Point; a non-finite elevation counts as missing. It
// stays in Ele, for Parse to count (Track.NonFinite) and clear.
func newPoint(lat, lon, ele float64, hasEle bool) track.Point {
	if !hasEle {
		return track.Point{Lat: lat, Lon: lon}
	}
	finite := !math.IsNaN(ele) && !math.IsInf(ele, 0)
	return track.Point{Lat: lat, Lon: lon, Ele: ele, HasEle: finite}
}

// maxElevation bounds believable elevations in metres: the deepest trench
// and the highest summit both lie well within it.
const maxElevation = 20000

// appendSegment adds seg to t unless it is empty.
func appendSegment(t *track.Track, seg []track.Point) {
	if len(seg) > 0 {
		t.Segments = append(t.Segments, seg)
	}
}

// isBinary reports whether the start of a file is not text: a NUL byte or
// invalid UTF-8 in its first 512 bytes.
func isBinary(head []byte) bool {
	head = head[:min(len(head), 512)]
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == 0 || (r == utf8.RuneError && n == 1 && len(head) >= utf8.UTFMax) {
			return true
		}
		head = head[n:]
	}
	return false
}
