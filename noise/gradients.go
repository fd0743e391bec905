package noise

// vec2 is a 2-D vector.
type vec2 struct{ x, y float64 }

// gradients holds the 256 unit gradient vectors of Perlin and simplex noise,
// g_k = (cos θ_k, sin θ_k) with θ_k = 2π(k + ½)/256: evenly spread, so the
// noise has no preferred direction, and half a step off the axes, so no
// gradient lies on a lattice line. The table is built without any math
// function at run time: the first octant is written out below (cos and
// sin to within an ulp, checked by TestGradientTable) and the rest follows
// by exact reflections and quarter turns, so it is the same on every machine
// and exactly symmetric (g_{k+128} = −g_k).
var gradients = buildGradients()

// gradientOctant holds g_0 … g_31, the directions with 0 < θ < π/4.
var gradientOctant = [32]vec2{
	{0.9999247018391446, 0.012271538285719925}, {0.9993223845883494, 0.03680722294135883},
	{0.9981181129001492, 0.06132073630220858}, {0.996312612182778, 0.0857973123444399},
	{0.9939069700023561, 0.11022220729388306}, {0.99090263542778, 0.13458070850712617},
	{0.9873014181578584, 0.15885814333386145}, {0.9831054874312164, 0.18303988795514095},
	{0.9783173707196277, 0.20711137619221856}, {0.9729399522055602, 0.2310581082806711},
	{0.9669764710448521, 0.25486565960451457}, {0.9604305194155658, 0.27851968938505306},
	{0.9533060403541938, 0.3020059493192281}, {0.9456073253805213, 0.3253102921622629},
	{0.937339011912575, 0.34841868024943456}, {0.9285060804732156, 0.37131719395183754},
	{0.9191138516900577, 0.3939920400610481}, {0.9091679830905225, 0.41642956009763715},
	{0.8986744656939538, 0.43861623853852766}, {0.8876396204028539, 0.46053871095824},
	{0.8760700941954066, 0.4821837720791227}, {0.8639728561215867, 0.5035383837257176},
	{0.8513551931052652, 0.524589682678469}, {0.8382247055548381, 0.5453249884220465},
	{0.8245893027850253, 0.5657318107836131}, {0.8104571982525948, 0.5857978574564389},
	{0.7958369046088836, 0.6055110414043255}, {0.7807372285720945, 0.6248594881423863},
	{0.765167265622459, 0.6438315428897914}, {0.7491363945234594, 0.6624157775901718},
	{0.7326542716724129, 0.680600997795453}, {0.7157308252838186, 0.6983762494089729},
}

// buildGradients expands the first octant to the full circle: g_{63−k} is
// g_k mirrored in the diagonal, and g_{k+64} is g_k turned a quarter.
func buildGradients() (g [256]vec2) {
	for k, v := range gradientOctant {
		g[k] = v
		g[63-k] = vec2{v.y, v.x}
	}
	for k := 64; k < 256; k++ {
		g[k] = vec2{-g[k-64].y, g[k-64].x}
	}
	return g
}

// gradient returns the unit gradient of lattice point (i, j), given j's row
// key: the hash's top eight bits pick the direction.
func gradient(row uint64, i int) vec2 {
	return gradients[hashCell(row, i)>>56]
}
