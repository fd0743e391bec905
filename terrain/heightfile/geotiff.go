package heightfile

import (
	"fmt"
	"math"
	"strings"
)

// GeoRef places a raster on the Earth the way GeoTIFF does: an affine map
// from pixel corners to model coordinates, without rotation.
type GeoRef struct {
	// OriginX, OriginY are the model coordinates of the upper-left corner
	// of pixel (0, 0): longitude and latitude in degrees when Geographic,
	// easting and northing in metres otherwise.
	OriginX, OriginY float64
	// PixelX is the model distance per column eastwards and PixelY per row
	// southwards (both positive for a north-up raster).
	PixelX, PixelY float64
	// Geographic: model units are degrees of longitude and latitude.
	Geographic bool
	// EPSG is the coordinate reference system's code (4326 for WGS 84
	// longitude/latitude, 326zz for UTM zone zz north), 0 when unknown.
	EPSG int
	// Azimuthal, when set, is the user-defined projection the model
	// coordinates (metres) are in; Geographic and EPSG are then unused.
	Azimuthal *Azimuthal
	// LinearUnit is the EPSG code of a projected CRS's model unit when
	// that is not the metre (9002 foot, 9003 US survey foot); 0 for
	// metres.
	LinearUnit int
}

// Azimuthal is an azimuthal equidistant projection on a sphere: the plane
// a route terrain is solved on. Written as a user-defined GeoTIFF CRS,
// GIS tools place every sample exactly where the route package put it.
type Azimuthal struct {
	Lat0, Lon0 float64 // the projection's centre, degrees
	Radius     float64 // the sphere's radius, metres
}

// earthRadius is the mean Earth radius in metres (IUGG), the one the route
// package projects with, so degrees convert the same way everywhere.
const earthRadius = 6371008.8

// CellMetres returns the size of a cell in metres east-west and
// north-south for a raster of the given number of rows: degrees are
// converted at the raster's middle latitude.
func (g *GeoRef) CellMetres(rows int) (cx, cy float64) {
	cx, cy = math.Abs(g.PixelX), math.Abs(g.PixelY)
	if u, ok := linearUnits[uint64(g.LinearUnit)]; ok && !g.Geographic {
		cx, cy = cx*u.metres, cy*u.metres
	}
	if g.Geographic {
		rad := math.Pi / 180
		lat := g.OriginY - g.PixelY*float64(rows)/2
		cx *= earthRadius * rad * math.Cos(lat*rad)
		cy *= earthRadius * rad
	}
	return cx, cy
}

// checkLatitudes refuses a geographic raster of the given number of rows
// whose north or south edge lies beyond a pole: its cells would have a
// negative or meaningless east-west size. Half a cell beyond is allowed,
// since a global grid of samples at the poles (PixelIsPoint) has its
// edges there.
func (g *GeoRef) checkLatitudes(rows int) error {
	if !g.Geographic {
		return nil
	}
	for _, e := range []struct {
		edge string
		lat  float64
	}{{"north", g.OriginY}, {"south", g.OriginY - g.PixelY*float64(rows)}} {
		if !(math.Abs(e.lat) <= 90+math.Abs(g.PixelY)/2) {
			return fmt.Errorf("tiff: the map's %s edge lies at latitude %g°, beyond ±90°", e.edge, e.lat)
		}
	}
	return nil
}

// cellSize returns the one cell size a Heightmap can have, the mean of the
// east-west and north-south sizes, and a note when they differ by more
// than 1 %.
func (g *GeoRef) cellSize(rows int) (float64, string) {
	cx, cy := g.CellMetres(rows)
	mean := (cx + cy) / 2
	note := ""
	if math.Abs(cx-cy) > 0.01*mean {
		note = fmt.Sprintf("cells are %.4g m east-west by %.4g m north-south; the map uses square cells of %.4g m, "+
			"so it is stretched %+.1f %% east-west", cx, cy, mean, 100*(mean/cx-1))
	}
	return mean, note
}

// The cell sizes a map may have, in metres. Beyond them the map's
// coordinates overflow or vanish in the 32-bit floats of meshes and
// shaders (a cell of 1e300 m gives infinite vertices), and no terrain
// is sampled that coarsely or that finely.
const (
	minCellSize = 1e-3
	maxCellSize = 1e7
)

// checkCellSize refuses a cell size of v metres outside the bounds above;
// what says where the size came from.
func checkCellSize(format, what string, v float64) error {
	if !(v >= minCellSize && v <= maxCellSize) {
		return fmt.Errorf("%s: cell size %g m (%s); want a finite size from %g to %g m", format, v, what, minCellSize, maxCellSize)
	}
	return nil
}

// linearUnits are the lengths in metres of the EPSG linear units a
// projected GeoTIFF names in ProjLinearUnitsGeoKey (EPSG dataset, unit of
// measure codes).
var linearUnits = map[uint64]struct {
	name   string
	metres float64
}{
	9001: {"metre", 1},
	9002: {"foot", 0.3048},
	9003: {"US survey foot", 1200.0 / 3937},
	9005: {"Clarke's foot", 0.3047972654},
	9014: {"fathom", 1.8288},
	9030: {"nautical mile", 1852},
	9035: {"German legal metre", 1.0000135965},
	9036: {"kilometre", 1000},
	9037: {"Clarke's yard", 0.9143917962},
	9039: {"Clarke's link", 0.201166195164},
	9040: {"British yard (Sears 1922)", 0.914398414616029},
	9041: {"British foot (Sears 1922)", 0.304799471538676},
	9042: {"British chain (Sears 1922)", 20.1166194976},
	9084: {"Indian yard", 0.914398530744440},
	9094: {"Gold Coast foot", 0.304799710181508},
	9096: {"yard", 0.9144},
	9098: {"German legal metre (truncated)", 1.0000135965},
}

// GeoTIFF keys (GeoTIFF 1.1, section 7) Cordillera reads and writes.
const (
	keyModelType      = 1024 // 1 projected, 2 geographic
	keyRasterType     = 1025 // 1 PixelIsArea, 2 PixelIsPoint
	keyGeographicType = 2048 // EPSG code of a geographic CRS
	keyProjectedType  = 3072 // EPSG code of a projected CRS
	keyAngularUnits   = 2054 // 9102: degrees
	angularDegree     = 9102

	// The keys of a user-defined projected CRS on a user-defined sphere.
	keyGeodeticDatum       = 2050
	keyPrimeMeridian       = 2051
	keyLinearUnits         = 2052
	keyEllipsoid           = 2056
	keySemiMajorAxis       = 2057
	keySemiMinorAxis       = 2058
	keyProjection          = 3074
	keyCoordTransform      = 3075
	keyProjLinearUnits     = 3076
	keyVerticalUnits       = 4099 // the unit of the heights (GeoTIFF 1.1, 7.1.5)
	keyFalseEasting        = 3082
	keyFalseNorthing       = 3083
	keyCenterLong          = 3088
	keyCenterLat           = 3089
	userDefined            = 32767
	primeGreenwich         = 8901
	linearMetre            = 9001
	ctAzimuthalEquidistant = 12
	tagGeoDoubleParams     = 34736
	tagGeoAsciiParams      = 34737
	keyCitation            = 1026 // GTCitationGeoKey: the CRS's name
	keyPCSCitation         = 3073
	keyVerticalCSType      = 4096 // EPSG code of the vertical CRS
	modelProjected         = 1
	modelGeographic        = 2
	rasterPixelIsArea      = 1
	rasterPixelPoint       = 2
)

// geoKeyDirectory encodes g's keys as the GeoKeyDirectoryTag's SHORTs,
// and the values of those held as doubles as the GeoDoubleParamsTag's.
func (g *GeoRef) geoKeyDirectory() ([]uint16, []float64) {
	type key struct{ id, value uint16 }
	var keys []key
	var doubles []float64
	// double adds a key whose value is the next entry of doubles.
	double := func(id uint16, v float64) key {
		doubles = append(doubles, v)
		return key{id, uint16(len(doubles) - 1)}
	}
	switch {
	case g.Azimuthal != nil:
		a := g.Azimuthal
		keys = []key{{keyModelType, modelProjected}, {keyRasterType, rasterPixelIsArea},
			{keyGeographicType, userDefined}, {keyGeodeticDatum, userDefined},
			{keyPrimeMeridian, primeGreenwich}, {keyLinearUnits, linearMetre},
			{keyAngularUnits, angularDegree}, {keyEllipsoid, userDefined},
			double(keySemiMajorAxis, a.Radius), double(keySemiMinorAxis, a.Radius),
			{keyProjectedType, userDefined}, {keyProjection, userDefined},
			{keyCoordTransform, ctAzimuthalEquidistant}, {keyProjLinearUnits, linearMetre},
			double(keyFalseEasting, 0), double(keyFalseNorthing, 0),
			double(keyCenterLong, a.Lon0), double(keyCenterLat, a.Lat0)}
	case g.Geographic:
		epsg := g.EPSG
		if epsg == 0 {
			epsg = 4326
		}
		keys = []key{{keyModelType, modelGeographic}, {keyRasterType, rasterPixelIsArea},
			{keyGeographicType, uint16(epsg)}, {keyAngularUnits, angularDegree}}
	case g.EPSG > 0 && g.EPSG < 65536:
		keys = []key{{keyModelType, modelProjected}, {keyRasterType, rasterPixelIsArea}, {keyProjectedType, uint16(g.EPSG)}}
	default:
		keys = []key{{keyRasterType, rasterPixelIsArea}}
	}
	if _, ok := linearUnits[uint64(g.LinearUnit)]; ok && !g.Geographic && g.Azimuthal == nil {
		keys = append(keys, key{keyProjLinearUnits, uint16(g.LinearUnit)})
	}
	dir := []uint16{1, 1, 0, uint16(len(keys))}
	for _, k := range keys {
		switch k.id {
		case keySemiMajorAxis, keySemiMinorAxis, keyFalseEasting, keyFalseNorthing, keyCenterLong, keyCenterLat:
			dir = append(dir, k.id, tagGeoDoubleParams, 1, k.value)
		default:
			dir = append(dir, k.id, 0, 1, k.value)
		}
	}
	return dir, doubles
}

// parseGeoKeys reads the keys Cordillera understands from a
// GeoKeyDirectoryTag; keys stored in other tags are skipped.
func parseGeoKeys(dir []uint64) map[uint16]uint64 {
	keys := map[uint16]uint64{}
	if len(dir) < 4 {
		return keys
	}
	n := int(dir[3])
	for i := range n {
		e := dir[4+4*i:]
		if len(e) < 4 {
			break
		}
		if e[1] == 0 && e[2] == 1 { // value held in the directory itself
			keys[uint16(e[0])] = e[3]
		}
	}
	return keys
}

// verticalUnit returns the length in metres of the unit a GeoTIFF's
// heights are in and a note for the user, or an error for a unit not
// known here. The unit is the VerticalUnitsGeoKey's; without one, the
// vertical CRS's (VerticalCSTypeGeoKey, or the name after " + " in the
// citation of a compound CRS, which is how GDAL writes EPSG:2272+6360:
// codes and names, no unit keys). A file that names a horizontal unit
// other than the metre but nothing vertical gets a note: its heights are
// taken as metres, as GDAL takes them, though a DEM in feet often has
// heights in feet too.
func verticalUnit(keys map[uint16]uint64, citation string) (float64, string, error) {
	horizontal, vertical, compound := strings.Cut(citation, " + ")
	code, ok := keys[keyVerticalUnits]
	if !ok {
		code, ok = verticalCRSUnits[keys[keyVerticalCSType]]
	}
	if !ok && compound {
		if code, ok = unitFromName(vertical); !ok {
			return 1, "", nil // a vertical CRS in metres
		}
	}
	if !ok {
		h, named := keys[keyProjLinearUnits]
		if !named {
			h, named = unitFromName(horizontal)
		}
		if u, known := linearUnits[h]; named && known && h != linearMetre && keys[keyModelType] == modelProjected {
			return 1, fmt.Sprintf("the map's cells are in %ss but it names no unit for its heights (VerticalUnitsGeoKey), "+
				"so they are taken as metres; if they are %ss, give -map-height in metres", u.name, u.name), nil
		}
		return 1, "", nil
	}
	u, known := linearUnits[code]
	if !known {
		return 0, "", fmt.Errorf("tiff: the map's height unit (VerticalUnitsGeoKey %d) is not known here; "+
			"convert its heights to metres, for example gdal_calc.py -A in.tif --calc=A*FACTOR --outfile=out.tif", code)
	}
	return u.metres, "", nil
}

// verticalCRSUnits are the units of the vertical CRSs in feet that US
// DEMs come in (EPSG dataset): GDAL writes their codes without a unit key.
var verticalCRSUnits = map[uint64]uint64{
	5702: 9003, // NGVD29 height (ftUS)
	6360: 9003, // NAVD88 height (ftUS)
	8228: 9002, // NAVD88 height (ft)
}

// unitFromName reads the unit an EPSG CRS name ends with: the dataset
// names every CRS in feet so, "NAD83 / Pennsylvania South (ftUS)" or
// "NAVD88 height (ft)"; a name without one is in metres (not ok).
func unitFromName(name string) (uint64, bool) {
	name = strings.TrimSpace(name)
	for _, u := range []struct {
		suffix string
		code   uint64
	}{{"(ftUS)", 9003}, {"(ft)", 9002}, {"(ftCla)", 9005}, {"(ftSe)", 9041}, {"(ftGC)", 9094}} {
		if strings.HasSuffix(name, u.suffix) {
			return u.code, true
		}
	}
	return 0, false
}

// geoCitation returns the name a GeoTIFF gives its CRS (GTCitationGeoKey,
// else PCSCitationGeoKey), stored in the GeoAsciiParamsTag; "" without.
func geoCitation(dir []uint64, ascii string) string {
	if len(dir) < 4 {
		return ""
	}
	found := map[uint64]string{}
	for i := range int(dir[3]) {
		e := dir[4+4*i:]
		if len(e) < 4 {
			break
		}
		if e[1] == tagGeoAsciiParams && e[3] <= uint64(len(ascii)) && e[2] <= uint64(len(ascii))-e[3] {
			// Strings in the tag end with '|' (GeoTIFF 1.1, 7.1.4).
			found[e[0]] = strings.TrimSuffix(ascii[e[3]:e[3]+e[2]], "|")
		}
	}
	if c := found[keyCitation]; c != "" {
		return c
	}
	return found[keyPCSCitation]
}

// geoRefFromTags builds the georeferencing from the model tags and keys;
// nil when the file has no pixel scale and tie point (or transformation).
func geoRefFromTags(scale, tie, transform []float64, keys map[uint16]uint64, citation string) (*GeoRef, error) {
	g := &GeoRef{}
	switch {
	case len(scale) >= 2 && len(tie) >= 6:
		g.PixelX, g.PixelY = scale[0], scale[1]
		// The tie point maps raster (I, J) to model (X, Y).
		g.OriginX = tie[3] - tie[0]*g.PixelX
		g.OriginY = tie[4] + tie[1]*g.PixelY
	case len(transform) >= 16:
		if transform[1] != 0 || transform[4] != 0 {
			return nil, fmt.Errorf("tiff: rotated or sheared georeferencing (ModelTransformation %v) is not supported", transform[:8])
		}
		g.PixelX, g.OriginX = transform[0], transform[3]
		g.PixelY, g.OriginY = -transform[5], transform[7]
	default:
		return nil, nil
	}
	for _, v := range []float64{g.PixelX, g.PixelY, g.OriginX, g.OriginY} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("tiff: georeferencing has a non-finite value (%v)", v)
		}
	}
	if g.PixelX == 0 || g.PixelY == 0 {
		return nil, fmt.Errorf("tiff: pixel scale %g×%g; want non-zero", g.PixelX, g.PixelY)
	}
	if keys[keyRasterType] == rasterPixelPoint {
		// The tie point names a pixel's centre: move it to the corner.
		g.OriginX -= g.PixelX / 2
		g.OriginY += g.PixelY / 2
	}
	switch {
	case keys[keyModelType] == modelGeographic:
		g.Geographic = true
		g.EPSG = int(keys[keyGeographicType])
	case keys[keyModelType] == modelProjected:
		g.EPSG = int(keys[keyProjectedType])
	}
	if !g.Geographic {
		code, ok := keys[keyProjLinearUnits]
		if !ok && g.EPSG != 0 {
			// A compound CRS as GDAL writes it names the projected CRS
			// by code and name only.
			horizontal, _, _ := strings.Cut(citation, " + ")
			code, ok = unitFromName(horizontal)
		}
		if ok {
			if _, known := linearUnits[code]; !known {
				return nil, fmt.Errorf("tiff: the map's linear unit (ProjLinearUnitsGeoKey %d) is not known here; "+
					"reproject it to metres, for example gdalwarp -t_srs EPSG:3857 in.tif out.tif", code)
			}
			if code != linearMetre {
				g.LinearUnit = int(code)
			}
		}
	}
	if g.EPSG == 32767 { // user-defined
		g.EPSG = 0
	}
	return g, nil
}
