//go:build ebitenginevmguest

package game

// framesSteppedByHost: under a host that steps the frames (the end-to-end
// tests' ebitengine vmhost), the time between frames is the host's pace,
// not the machine's.
const framesSteppedByHost = true
