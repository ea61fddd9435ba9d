package baselines

// mean is the unclipped mean of the per-user losses, f(theta) of equation (1).
func mean(losses []float64) float64 {
	s := 0.0
	for _, v := range losses {
		s += v
	}
	return s / float64(len(losses))
}
