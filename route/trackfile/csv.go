package trackfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cordillera/route/track"
)

// Column names ParseCSV accepts, compared case-insensitively after units
// in brackets ("ele (m)", "altitude[m]") and surrounding spaces are removed.
var (
	latNames = []string{"lat", "latitude"}
	lonNames = []string{"lon", "lng", "long", "longitude"}
	eleNames = []string{"ele", "elevation", "alt", "altitude"}
)

// csvColumns locates the columns ParseCSV reads.
type csvColumns struct {
	comma         rune
	lat, lon, ele int  // ele is -1 when the file has no elevation column
	hashHeader    bool // the header line starts with '#'
}

// positioned reports whether rec has a latitude and a longitude cell,
// both non-empty.
func (c csvColumns) positioned(rec []string) bool {
	return len(rec) > max(c.lat, c.lon) && strings.TrimSpace(rec[c.lat]) != "" && strings.TrimSpace(rec[c.lon]) != ""
}

// blankRow reports whether every field of rec is empty.
func blankRow(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// ParseCSV reads a table whose first line names its columns: latitude
// (lat, latitude), longitude (lon, lng, long, longitude) and elevation
// (ele, elevation, alt, altitude), in any case and order, separated by
// commas, semicolons or tabs (whichever the header uses most). Other
// columns are ignored; an empty elevation cell means no elevation; with
// semicolons or tabs a decimal comma is accepted. Lines starting with
// '#' are comments, unless one of them names the columns before any
// other line does (OpenTracks writes "#time,latitude,…"). Blank rows
// and rows without a position (no latitude or longitude: a pause, a
// marker) are skipped. The whole file is one segment.
func ParseCSV(data []byte) (*track.Track, error) {
	cols, err := csvHeader(data)
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = cols.comma
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	r.ReuseRecord = true
	r.Comment = '#'
	if !cols.hashHeader { // a '#' header is skipped as a comment
		if _, err := r.Read(); err != nil { // the header, already understood
			return nil, fmt.Errorf("csv: %w", err)
		}
	}
	t := &track.Track{Format: track.CSV}
	var seg []track.Point
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
		if blankRow(rec) || !cols.positioned(rec) {
			continue
		}
		p, err := cols.point(rec)
		if err != nil {
			return nil, fmt.Errorf("csv: line %d: %w", line, err)
		}
		seg = append(seg, p)
	}
	appendSegment(t, seg)
	return t, nil
}

// csvHeader finds the delimiter and the latitude, longitude and elevation
// columns from the first non-comment line, or from a comment line before
// it that names them.
func csvHeader(data []byte) (csvColumns, error) {
	var header string
	for rest := data; len(rest) > 0; {
		line, tail, _ := bytes.Cut(rest, []byte("\n"))
		rest = tail
		s := strings.TrimSpace(string(line))
		if s == "" {
			continue
		}
		if strings.HasPrefix(s, "#") {
			if cols, err := csvColumnsOf(strings.TrimSpace(s[1:])); err == nil {
				cols.hashHeader = true
				return cols, nil
			}
			continue
		}
		header = s
		break
	}
	if header == "" {
		return csvColumns{}, errors.New("no header line")
	}
	return csvColumnsOf(header)
}

// csvColumnsOf reads a header line.
func csvColumnsOf(header string) (csvColumns, error) {
	comma, best := ',', -1
	for _, c := range []rune{',', ';', '\t'} {
		if n := strings.Count(header, string(c)); n > best {
			comma, best = c, n
		}
	}
	r := csv.NewReader(strings.NewReader(header))
	r.Comma = comma
	r.LazyQuotes = true
	names, err := r.Read()
	if err != nil {
		return csvColumns{}, fmt.Errorf("header: %w", err)
	}
	cols := csvColumns{comma: comma, lat: -1, lon: -1, ele: -1}
	for i, name := range names {
		name = columnName(name)
		for _, c := range []struct {
			names []string
			idx   *int
		}{{latNames, &cols.lat}, {lonNames, &cols.lon}, {eleNames, &cols.ele}} {
			for _, n := range c.names {
				if name == n && *c.idx < 0 {
					*c.idx = i
				}
			}
		}
	}
	if cols.lat < 0 || cols.lon < 0 {
		shown := header
		if len(shown) > 80 {
			shown = shown[:80] + "…"
		}
		return cols, fmt.Errorf("header %q names no latitude and longitude columns (lat/latitude, lon/lng/long/longitude)", shown)
	}
	return cols, nil
}

// columnName normalises a header cell: lower case, no unit in brackets.
func columnName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	// i > 0, not >= 0: a name that is a bracket alone, cut, would be
	// empty; kept whole it names nothing either, so the two agree.
	if i := strings.IndexAny(s, "(["); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	return strings.Trim(s, `"' `)
}

// point reads one record. ParseCSV calls it only on positioned records,
// so its length check is a guard for other callers: no file reaches it,
// and a mutation testing run cannot tell "<=" from "<" there.
func (c csvColumns) point(rec []string) (track.Point, error) {
	if len(rec) <= max(c.lat, c.lon) {
		return track.Point{}, fmt.Errorf("%d fields; the latitude and longitude are in columns %d and %d", len(rec), c.lat+1, c.lon+1)
	}
	lat, err := c.number(rec[c.lat])
	if err != nil {
		return track.Point{}, fmt.Errorf("latitude %q is not a number", rec[c.lat])
	}
	lon, err := c.number(rec[c.lon])
	if err != nil {
		return track.Point{}, fmt.Errorf("longitude %q is not a number", rec[c.lon])
	}
	var ele float64
	hasEle := c.ele >= 0 && c.ele < len(rec) && strings.TrimSpace(rec[c.ele]) != ""
	if hasEle {
		if ele, err = c.number(rec[c.ele]); err != nil {
			return track.Point{}, fmt.Errorf("elevation %q is not a number", rec[c.ele])
		}
	}
	return newPoint(lat, lon, ele, hasEle), nil
}

// number parses a decimal number; where the delimiter is not a comma, a
// decimal comma ("46,52") is read as a point.
func (c csvColumns) number(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if c.comma != ',' {
		s = strings.Replace(s, ",", ".", 1)
	}
	return strconv.ParseFloat(s, 64)
}
