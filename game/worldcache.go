package game

import (
	"cordillera/terrain"
)

// The worlds made last are kept, so that undo and redo (and a slider put
// back where it was) show a world again at once rather than making it
// anew: an eroded 1025² map takes tens of seconds to make. The shown
// world is kept too, so undoing a change finds it. The memory they hold is
// bounded by worldCacheBudget bytes (worldCacheBudget in
// worldcache_budget.go and worldcache_js.go) and worldCacheWorlds worlds,
// the least recently shown dropped first.

// worldCacheWorlds is the most worlds kept, however small.
const worldCacheWorlds = 8

// worldCache holds finished worlds by what made them.
type worldCache struct {
	budget  int64         // bytes; 0: worldCacheBudget
	entries []cachedWorld // least recently shown first
	bytes   int64
}

type cachedWorld struct {
	params terrain.Params
	source *terrain.Heightmap // the loaded map it was eroded from; nil for a generated world
	res    *Generated
	bytes  int64
}

// cacheable tells whether making res's world again would come from its
// parameters (and loaded source) alone, as applyParams makes it: a route's
// world needs its track too, and a preview or an error is not a world.
func cacheable(res *Generated) bool {
	if res.Err != nil || res.Preview || res.World == nil || res.World.Route != nil {
		return false
	}
	return !res.Loaded || res.World.Source != nil
}

// put keeps res, the most recently shown, dropping the least recently
// shown worlds beyond the budget. A world larger than the budget alone is
// not kept.
func (c *worldCache) put(res *Generated) {
	if !cacheable(res) {
		return
	}
	budget := c.budget
	if budget == 0 {
		budget = worldCacheBudget
	}
	c.remove(res.Params, res.World.Source)
	e := cachedWorld{params: res.Params, source: res.World.Source, res: res, bytes: res.World.approxBytes()}
	if e.bytes > budget {
		return
	}
	c.entries = append(c.entries, e)
	c.bytes += e.bytes
	for c.bytes > budget || len(c.entries) > worldCacheWorlds {
		c.bytes -= c.entries[0].bytes
		c.entries[0] = cachedWorld{}
		c.entries = c.entries[1:]
	}
}

// get returns the kept world p made (from source, for a loaded map), or
// nil, and marks it the most recently shown.
func (c *worldCache) get(p terrain.Params, source *terrain.Heightmap) *Generated {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if e := c.entries[i]; e.params == p && e.source == source {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.res
		}
	}
	return nil
}

// remove drops the world p made from source, if kept.
func (c *worldCache) remove(p terrain.Params, source *terrain.Heightmap) {
	for i, e := range c.entries {
		if e.params == p && e.source == source {
			c.bytes -= e.bytes
			c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
			return
		}
	}
}

// approxBytes is about the memory the world holds: its heights, normals,
// erosion masks, the land beyond it and the minimap's relief (the LOD's
// per-chunk bounds are small beside them).
func (w *World) approxBytes() int64 {
	n := int64(len(w.Map.Samples) + len(w.Normals))
	if mk := w.Masks; mk != nil {
		n += int64(len(mk.Flow) + len(mk.Eroded) + len(mk.Deposited))
	}
	if o := w.Outside; o != nil {
		n += int64(len(o.Heights) + len(o.Fade))
	}
	b := 4 * n
	if mm := w.Minimap; mm != nil && mm.relief != nil {
		b += 2 * int64(len(mm.relief.Pix)) // on the CPU and the GPU
	}
	return b
}
