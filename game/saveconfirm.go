package game

import (
	"fmt"
	"os"
	"time"
)

// Saving over an existing file asks first: the first click says the file
// exists, a second click of the same button on the same path within
// replaceWindow replaces it.

// replaceWindow is how long a "click again to replace" stands.
const replaceWindow = 10 * time.Second

// pendingReplace is the save that asked to replace a file.
type pendingReplace struct {
	what, path string
	at         time.Time
}

// saveAsking runs save(path) for the button what, asking first when a file
// is already at path.
func (g *Game) saveAsking(what, path string, save func(path string) error) {
	ask := pendingReplace{what: what, path: path, at: time.Now()}
	if _, err := os.Stat(path); err == nil {
		if p := g.ui.replace; p.what != what || p.path != path || time.Since(p.at) > replaceWindow {
			g.ui.replace = ask
			g.ui.say(fmt.Sprintf("%s exists: click %s again to replace it", path, what))
			return
		}
	}
	g.ui.replace = pendingReplace{}
	if err := save(path); err != nil {
		g.ui.fail(err)
		return
	}
	g.ui.say("saved " + path)
}
