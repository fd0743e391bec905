package trackfile

import (
	"encoding/json"
	"errors"
	"fmt"

	"cordillera/route/track"
)

// geoObject is any GeoJSON object: a FeatureCollection, a Feature or a
// geometry.
type geoObject struct {
	Type        string          `json:"type"`
	Features    []geoObject     `json:"features"`
	Geometry    *geoObject      `json:"geometry"`
	Geometries  []geoObject     `json:"geometries"`
	Coordinates json.RawMessage `json:"coordinates"`
}

// maxGeoDepth bounds nested GeometryCollections.
const maxGeoDepth = 8

// ParseGeoJSON reads a GeoJSON FeatureCollection, Feature or geometry
// (RFC 7946): every LineString, and every line of a MultiLineString, becomes
// a segment of its [longitude, latitude, elevation] positions. Points,
// polygons and positions without an elevation contribute no elevation.
func ParseGeoJSON(data []byte) (*track.Track, error) {
	var obj geoObject
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("geojson: %w", err)
	}
	t := &track.Track{Format: track.GeoJSON}
	if err := obj.collect(t, 0); err != nil {
		return nil, fmt.Errorf("geojson: %w", err)
	}
	return t, nil
}

func (o *geoObject) collect(t *track.Track, depth int) error {
	if depth > maxGeoDepth {
		return errors.New("geometries nested too deeply")
	}
	switch o.Type {
	case "FeatureCollection":
		for i := range o.Features {
			if err := o.Features[i].collect(t, depth+1); err != nil {
				return fmt.Errorf("feature %d: %w", i+1, err)
			}
		}
	case "Feature":
		if o.Geometry != nil {
			return o.Geometry.collect(t, depth+1)
		}
	case "GeometryCollection":
		for i := range o.Geometries {
			if err := o.Geometries[i].collect(t, depth+1); err != nil {
				return fmt.Errorf("geometry %d: %w", i+1, err)
			}
		}
	case "LineString":
		var line [][]float64
		if err := json.Unmarshal(o.Coordinates, &line); err != nil {
			return fmt.Errorf("LineString coordinates: want [[lon, lat, ele], ...]: %w", err)
		}
		seg, err := geoLine(line)
		if err != nil {
			return fmt.Errorf("LineString: %w", err)
		}
		appendSegment(t, seg)
	case "MultiLineString":
		var lines [][][]float64
		if err := json.Unmarshal(o.Coordinates, &lines); err != nil {
			return fmt.Errorf("MultiLineString coordinates: want [[[lon, lat, ele], ...], ...]: %w", err)
		}
		for i, line := range lines {
			seg, err := geoLine(line)
			if err != nil {
				return fmt.Errorf("MultiLineString line %d: %w", i+1, err)
			}
			appendSegment(t, seg)
		}
	case "Point", "MultiPoint", "Polygon", "MultiPolygon":
		// Not a route.
	case "":
		return errors.New(`object without a "type"`)
	default:
		return fmt.Errorf("unknown type %q", o.Type)
	}
	return nil
}

// geoLine converts GeoJSON positions [lon, lat] or [lon, lat, ele].
func geoLine(line [][]float64) ([]track.Point, error) {
	seg := make([]track.Point, 0, len(line))
	for i, c := range line {
		switch len(c) {
		case 2:
			seg = append(seg, newPoint(c[1], c[0], 0, false))
		case 3, 4: // a fourth value (a measure) is allowed and ignored
			seg = append(seg, newPoint(c[1], c[0], c[2], true))
		default:
			return nil, fmt.Errorf("position %d has %d numbers; want [lon, lat] or [lon, lat, ele]", i+1, len(c))
		}
	}
	return seg, nil
}
