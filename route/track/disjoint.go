package track

// disjointSets is union-find over n items with path halving: the pieces
// of a track that belong together (copies, parts, fragments).
type disjointSets []int

func newDisjointSets(n int) disjointSets {
	p := make(disjointSets, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// find returns the root of i's set.
func (p disjointSets) find(i int) int {
	for p[i] != i {
		p[i] = p[p[i]]
		i = p[i]
	}
	return i
}

// join puts a's set under b's root.
func (p disjointSets) join(a, b int) { p[p.find(a)] = p.find(b) }
