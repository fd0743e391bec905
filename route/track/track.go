// Package track holds a GPS track and prepares it for the map
// (Gasch et al., "Procedural Modeling of Terrain from GPS Routes",
// section 3.1).
//
// A Track is what a route file holds (package trackfile reads them):
// segments of latitude, longitude and elevation. Prepare turns a Track
// into a Path on a square map: positions projected to local metres and
// fitted into the map with a margin, duplicate points removed, segments
// split at jumps, far fragments dropped, elevation spikes, steps and
// settling altitude repaired, and missing elevations filled in along the
// track. Resample then spaces a Path's points evenly. Parts and
// SelectPart choose among recordings far apart in one file.
//
// track knows nothing of file formats, lattices or heightmaps.
package track

import (
	"fmt"
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
	// several recordings of which one was taken); route's Result.Notes
	// shows them.
	Warnings []string

	// Labels, where the format names its lines (a KML placemark's name),
	// name each segment: "GPS altitude", "Pressure altitude". Empty or as
	// long as Segments.
	Labels []string

	// Part is the recording Prepare builds the map of, where the file
	// holds several far apart (Parts, SelectPart): 1-based, 0 for the
	// longest.
	Part int

	// prepared is the Path KeepPrepared was given, which Prepared
	// returns instead of the track being prepared again where its options
	// and part are the same (a 2-million-point track takes seconds to
	// prepare).
	prepared *preparedTrack
}

type preparedTrack struct {
	opt  Options
	part int
	path *Path
}

// KeepPrepared remembers path as what Prepare(t, opt) gives for t's
// current part, for Prepared: a caller that checks a track before it
// builds the map need not prepare it twice.
func (t *Track) KeepPrepared(opt Options, path *Path) {
	t.prepared = &preparedTrack{opt: opt, part: t.Part, path: path}
}

// Prepared returns the Path KeepPrepared remembered for opt and t's
// current part, or nil. Nothing that builds a map changes it.
func (t *Track) Prepared(opt Options) *Path {
	if c := t.prepared; c != nil && c.opt == opt && c.part == t.Part {
		return c.path
	}
	return nil
}

// Format names a route file format.
type Format string

// The formats package trackfile reads.
const (
	GPX     Format = "gpx"
	GeoJSON Format = "geojson"
	CSV     Format = "csv"
	TCX     Format = "tcx"
	KML     Format = "kml"
	FIT     Format = "fit"
)

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
