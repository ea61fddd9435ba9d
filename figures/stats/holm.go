package stats

import (
	"fmt"
	"math"
	"sort"
)

// Holm returns Holm-Bonferroni adjusted p-values in the order of p: with p_(1) <= ... <=
// p_(m) the sorted p-values, the adjusted value of p_(i) is max_{j <= i} min(1, (m - j + 1)
// p_(j)) (step-down, monotone in the sorted order, capped at 1). Rejecting every hypothesis
// whose adjusted value is <= alpha is Holm's procedure at family-wise level alpha; the values
// are those of statsmodels' multipletests(p, method="holm")[1] and R's p.adjust(p, "holm").
// Ties keep their input order and receive the same adjusted value. An empty p gives an empty
// result. Holm panics if an element of p is NaN or outside [0, 1]: p-values come from code,
// so that is a programming error.
func Holm(p []float64) []float64 {
	for i, v := range p {
		if math.IsNaN(v) || v < 0 || v > 1 {
			panic(fmt.Sprintf("stats: Holm: p[%d] = %v is not a probability", i, v))
		}
	}
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return p[order[i]] < p[order[j]] })
	adj := make([]float64, m)
	running := 0.0
	for j, idx := range order {
		v := math.Min(1, float64(m-j)*p[idx])
		running = math.Max(running, v)
		adj[idx] = running
	}
	return adj
}
