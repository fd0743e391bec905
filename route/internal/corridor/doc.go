// Package corridor measures and smooths the ground along a track, the
// steps of the route's terrain share: the straight pieces of a track in
// map samples and the samples within reach of them (NearestEdges), the
// curvature a crease shows as and the crease ratio of the corridor
// against the ground outside it, the cubic B-spline kernel that smooths a
// field splatted along the track, and bilinear reads of the map.
package corridor
