package studies

import (
	"fmt"
	"math/rand/v2"

	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
)

// The acceptance of the low-SNR study (docs/library.md, "DP-GIBO at low SNR, declared before
// its runs"), and the bootstrap world that shows, before any run, that a good rule can pass
// it. Per cell, G(m) = (median final loss of m - f*) / (median start - f*), medians over the
// judged seeds; the reference is the method best by G on the picking seeds (dp-auto left
// out); a cell passes when dp-auto's G is at most lowSNRPassRatio times the reference's plus
// lowSNRPassSlack and its median loss is not above the median start; the study passes when
// at least lowSNRPassShare of its cells pass and none ends above the start.
const (
	lowSNRPassRatio, lowSNRPassSlack = 1.10, 0.02
	lowSNRPassShare                  = 0.8
	// lowSNRFlagShare flags a problem whose median start lies within this share of |f*| of
	// f*: its G divides by almost nothing, and its cells are not counted.
	lowSNRFlagShare = 0.01
	// lowSNRCells is the least number of held-out cells after flags, and lowSNRHalfSeeds the
	// seeds that pick the reference (1 to lowSNRHalfSeeds) and that judge (the next as many):
	// the least at which the bootstrap world passes a rule that runs the true best method in
	// at least 90% of studies (TestDeclaredAcceptanceIsPassable; 5 + 5 seeds give 0.44,
	// 20 + 20 give 0.90 at 36 cells, just short).
	lowSNRCells, lowSNRHalfSeeds = 36, 30
)

// worldCell is one committed cell as the bootstrap world's truth: each method's final loss
// and the start by seed (seeds in the same order for every method), f*, and the method best
// by G over all its seeds.
type worldCell struct {
	problem string
	mu      float64
	fstar   float64
	starts  []float64
	losses  map[string][]float64
	best    string
}

// g is G of a median loss against a median start.
func (c worldCell) g(medianLoss, medianStart float64) float64 {
	return (medianLoss - c.fstar) / (medianStart - c.fstar)
}

// medianAt is the median of x at the indices idx.
func medianAt(x []float64, idx []int) float64 {
	at := make([]float64, len(idx))
	for k, i := range idx {
		at[k] = x[i]
	}
	return stats.Median(at)
}

// flagged reports whether the cell's median start lies within lowSNRFlagShare of |f*|.
func (c worldCell) flagged() bool {
	return stats.Median(c.starts)-c.fstar <= lowSNRFlagShare*max(c.fstar, -c.fstar)
}

// worldCells reads the committed cells of the private-tuner study in res (every seed of
// every method, dp-auto left out) as the bootstrap world's truth.
func worldCells(res *verdict.Results) ([]worldCell, error) {
	groups, err := studyCellCurves(res)
	if err != nil {
		return nil, err
	}
	var out []worldCell
	for _, g := range groups {
		cell := worldCell{problem: g.problem, mu: g.mu, losses: map[string][]float64{}}
		var seeds []int
		for _, c := range g.curves {
			if c.Method != dpgiboMethod {
				continue
			}
			fstar, ok := res.FStar.Lookup(c)
			if !ok {
				return nil, fmt.Errorf("%s, mu = %v: no f*", g.problem, g.mu)
			}
			cell.fstar = fstar
			for _, r := range c.Runs {
				seeds, cell.starts = append(seeds, r.Seed), append(cell.starts, r.Start)
			}
		}
		if seeds == nil {
			return nil, fmt.Errorf("%s, mu = %v: no %s runs (their starts)", g.problem, g.mu, dpgiboMethod)
		}
		bestG, medianStart := 0.0, stats.Median(cell.starts)
		for _, c := range g.curves {
			if c.Method == autoMethod {
				continue
			}
			if len(c.Runs) != len(seeds) {
				return nil, fmt.Errorf("%s, mu = %v: %s has %d runs, %s %d", g.problem, g.mu, c.Method, len(c.Runs), dpgiboMethod, len(seeds))
			}
			losses := make([]float64, len(seeds))
			for i, r := range c.Runs {
				if r.Seed != seeds[i] {
					return nil, fmt.Errorf("%s, mu = %v: %s's seeds are not %s's", g.problem, g.mu, c.Method, dpgiboMethod)
				}
				losses[i] = r.Loss
			}
			cell.losses[c.Method] = losses
			if g := cell.g(stats.Median(losses), medianStart); cell.best == "" || g < bestG {
				cell.best, bestG = c.Method, g
			}
		}
		out = append(out, cell)
	}
	return out, nil
}

// simulateAcceptance is the share of studies of cells cells (drawn from the unflagged
// world cells with replacement) that a rule running each cell's true best method passes,
// with half seeds picking the reference and half judging. In each study every cell draws
// fresh seeds with replacement from its committed ones, paired across methods (a seed is a
// method's run and its start): the first half picks the reference, the second judges;
// dp-auto's runs of the best method are a draw of their own, as its own random stream gives
// in the study.
func simulateAcceptance(world []worldCell, cells, half, studies int, rng *rand.Rand) (float64, error) {
	var pool []worldCell
	for _, c := range world {
		if !c.flagged() {
			pool = append(pool, c)
		}
	}
	if len(pool) == 0 {
		return 0, fmt.Errorf("no unflagged cell to draw from")
	}
	passed := 0
	for range studies {
		pass, above := 0, false
		for range cells {
			c := pool[rng.IntN(len(pool))]
			n := len(c.starts)
			draw := func(k int) []int {
				idx := make([]int, k)
				for i := range idx {
					idx[i] = rng.IntN(n)
				}
				return idx
			}
			seeds := draw(2 * half)
			pick, judge := seeds[:half], seeds[half:]
			ref, refG, pickStart := "", 0.0, medianAt(c.starts, pick)
			for m, losses := range c.losses {
				if g := c.g(medianAt(losses, pick), pickStart); ref == "" || g < refG || (g == refG && m < ref) {
					ref, refG = m, g
				}
			}
			start := medianAt(c.starts, judge)
			gRef := c.g(medianAt(c.losses[ref], judge), start)
			loss := medianAt(c.losses[c.best], draw(len(judge)))
			gAuto := c.g(loss, start)
			if loss > start {
				above = true
			} else if gAuto <= lowSNRPassRatio*gRef+lowSNRPassSlack {
				pass++
			}
		}
		if !above && float64(pass) >= lowSNRPassShare*float64(cells) {
			passed++
		}
	}
	return float64(passed) / float64(studies), nil
}
