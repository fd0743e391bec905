//go:build !ebitenginevmguest

package game

// framesSteppedByHost is false in a window of its own: the time between
// frames is how long the machine takes to make one.
const framesSteppedByHost = false
