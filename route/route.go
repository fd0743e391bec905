// Package route reads GPS tracks and builds the terrain through them
// (Gasch et al., "Procedural Modeling of Terrain from GPS Routes").
//
// Parse reads GPX 1.0 and 1.1, GeoJSON, CSV, TCX, KML and FIT, recognised from the
// content rather than the file name, into a Track: segments of latitude,
// longitude and elevation. Prepare turns a Track into a Path on a square
// map (section 3.1): positions projected to local metres and fitted into
// the map with a margin, duplicate points removed, segments split at jumps,
// elevation spikes removed by a median filter, and missing elevations
// filled in along the track. Resample then spaces a Path's points evenly.
//
// Generate builds paper 002's lattice turbulence and solves its lattice
// values so that the terrain passes through the track's points exactly
// (minimum-norm constrained turbulence), optionally with a level road.
// route builds on terrain's Heightmap and parameter table; it knows
// nothing of erosion, files or the explorer.
package route

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"cordillera/internal/inputfile"
)

// Point is one GPS fix. Lat and Lon are in degrees (WGS 84); Ele is in
// metres and means something only when HasEle is set.
type Point struct {
	Lat, Lon float64
	Ele      float64
	HasEle   bool
}

// Track is a parsed route file: segments of points in the order recorded.
// A gap between segments (a pause, another track in the same file) is not
// part of the route.
type Track struct {
	Format   Format
	Segments [][]Point

	// NonFinite counts the elevations that were NaN or infinite: they are
	// treated as missing (filled in along the track) and reported.
	NonFinite int

	// Warnings say what was wrong with a file that was read all the same
	// (a FIT checksum that does not match, duplicate geometry read once,
	// several recordings of which one was taken); Result.Notes shows them.
	Warnings []string

	// Labels, where the format names its lines (a KML placemark's name),
	// name each segment: "GPS altitude", "Pressure altitude". Empty or as
	// long as Segments.
	Labels []string

	// Part is the recording Prepare builds the map of, where the file
	// holds several far apart (Parts, SelectPart): 1-based, 0 for the
	// longest.
	Part int

	// precheck is the Path Precheck prepared, which Generate takes
	// instead of preparing the track again where its options and part
	// are the same (a 2-million-point track takes seconds to prepare).
	precheck *preparedTrack
}

type preparedTrack struct {
	opt  Options
	part int
	path *Path
}

// Format names a route file format.
type Format string

// The formats Parse reads.
const (
	GPX     Format = "gpx"
	GeoJSON Format = "geojson"
	CSV     Format = "csv"
	TCX     Format = "tcx"
	KML     Format = "kml"
	FIT     Format = "fit"
)

// MaxFileSize bounds what Load reads: a day-long track logged every second
// is a few megabytes, so a file much larger than this is not a route.
const MaxFileSize = 64 << 20

// ErrUnknownFormat is returned (wrapped) for content none of the parsers
// recognise.
var ErrUnknownFormat = errors.New("not a GPX, TCX, KML, FIT, GeoJSON or CSV route")

// extensions are the file name suffixes each format goes by.
var extensions = map[string]Format{
	".gpx": GPX, ".tcx": TCX, ".kml": KML, ".fit": FIT,
	".geojson": GeoJSON, ".json": GeoJSON, ".csv": CSV, ".txt": CSV, ".tsv": CSV,
}

// Load reads and parses the route file at path, and checks that it has
// enough points to build a terrain from (Track.Check). Errors start with
// the path.
func Load(path string) (*Track, error) {
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
func Parse(data []byte) (*Track, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	var t *Track
	var err error
	switch f := Detect(data); f {
	case GPX:
		t, err = ParseGPX(data)
	case TCX:
		t, err = ParseTCX(data)
	case KML:
		t, err = ParseKML(data)
	case FIT:
		t, err = ParseFIT(data)
	case GeoJSON:
		t, err = ParseGeoJSON(data)
	case CSV:
		t, err = ParseCSV(data)
	default:
		return nil, describeUnknown(data)
	}
	if err != nil {
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
func Detect(data []byte) Format {
	if isFIT(data) {
		return FIT
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	head := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case len(head) == 0:
		return ""
	case head[0] == '<':
		switch xmlRoot(head) {
		case "gpx":
			return GPX
		case "TrainingCenterDatabase":
			return TCX
		case "kml":
			return KML
		}
		return ""
	case head[0] == '{':
		return GeoJSON
	}
	if _, err := csvHeader(head); err == nil {
		return CSV
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

// Check reports whether the track can be built into a terrain: at least
// two points with a position, and an elevation on at least one of them.
func (t *Track) Check() error {
	positioned, withEle := 0, 0
	for _, seg := range t.Segments {
		positioned += len(seg)
		for _, p := range seg {
			if p.HasEle {
				withEle++
			}
		}
	}
	switch {
	case positioned < 2:
		return fmt.Errorf("%s: %d point(s) with a position; a route needs at least 2", t.Format, positioned)
	case withEle == 0:
		return fmt.Errorf("%s: none of the %d points has an elevation", t.Format, positioned)
	}
	return nil
}

// Points returns the number of points in all segments.
func (t *Track) Points() int {
	n := 0
	for _, seg := range t.Segments {
		n += len(seg)
	}
	return n
}

func checkPosition(p Point) error {
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
func newPoint(lat, lon, ele float64, hasEle bool) Point {
	if !hasEle {
		return Point{Lat: lat, Lon: lon}
	}
	finite := !math.IsNaN(ele) && !math.IsInf(ele, 0)
	return Point{Lat: lat, Lon: lon, Ele: ele, HasEle: finite}
}

// maxElevation bounds believable elevations in metres: the deepest trench
// and the highest summit both lie well within it.
const maxElevation = 20000

// appendSegment adds seg to t unless it is empty.
func (t *Track) appendSegment(seg []Point) {
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
