package game

import "testing"

// Past the history's limit the oldest changes are forgotten, never the
// newest: after 250 changes Ctrl+Z takes back the 250th, then the 249th,
// and so on for 200 steps, down to the 51st; the 201st finds nothing.
func TestUndoKeepsTheNewestPastTheLimit(t *testing.T) {
	g := undoGame(t)
	g.View.SunElevation = 0
	g.trackChanges(false)
	const changes = 250
	for i := 1; i <= changes; i++ { // change i sets the sun to i/10°
		g.View.SunElevation = float32(i) / 10
		g.trackChanges(false)
	}
	for k := 1; k <= undoLimit; k++ {
		want := float32(changes-k) / 10 // undo k takes back change changes-k+1
		if !g.Undo() {
			t.Fatalf("undo %d of %d found nothing; %d steps are kept", k, undoLimit, undoLimit)
		}
		if g.View.SunElevation != want {
			t.Fatalf("undo %d left the sun at %v°; want %v°, the settings before change %d", k, g.View.SunElevation, want, changes-k+1)
		}
		g.trackChanges(false)
	}
	if g.Undo() {
		t.Errorf("undo %d found a step; only %d are kept", undoLimit+1, undoLimit)
	}
	// And redo walks back up to the newest.
	for range undoLimit {
		g.Redo()
	}
	if g.View.SunElevation != changes/10.0 {
		t.Errorf("redoing everything left the sun at %v°; want %v°", g.View.SunElevation, changes/10.0)
	}
}
