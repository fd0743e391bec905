package route

func ruleFloor(r *Result) float64 { return r.Bounds.floor() }
