// Package route builds the terrain through a GPS track (Gasch et al.,
// "Procedural Modeling of Terrain from GPS Routes", paper 002).
//
// Generate prepares a track.Track on a square map (package track), builds
// paper 002's lattice turbulence and solves its lattice values so that the
// terrain passes through the track's points exactly (minimum-norm
// constrained turbulence), brings the map onto the track between those
// points (the follow step), keeps the relief around it plausible (the
// relief rule) and, optionally, levels a road along it (package road).
// Precheck refuses a track the map cannot follow before any terrain is
// built; Result and Report say how well the map meets the track.
//
// route builds on terrain's Heightmap and parameter table and on package
// track; it knows nothing of erosion, file formats (package trackfile
// reads route files) or the explorer.
package route
