package claims

import "slices"

// SeedRaise is a figure's seeds raised after its results were judged, for named statements
// that the committed seeds left undecided. It is declared, with the count and -plan's
// estimate of the added cells, before the run that adds the seeds, and the count is final
// for those statements. The verdicts are judged on all the seeds; the verdict the seeds
// before the raise gave is kept beside any verdict it moved (statements.csv,
// superseded_verdict), and every claim that reads the raised curves says so in
// reproduction/claim-history.csv ("seeds raised after results").
type SeedRaise struct {
	// Figure is the raised figure; Task, when set, limits the raise to that task's curves.
	Figure, Task string
	// Methods are the methods whose curves are raised (nil: every method of Figure and Task).
	Methods []string
	// From is the number of seeds of the raised curves when the raise was declared, To the
	// number after it.
	From, To int
	// For names the statements the raise is for.
	For []string
	// PlanCellSeconds is -plan's estimate of the added cells, in cell-seconds, at the
	// declaration (on the cost model and the committed timings).
	PlanCellSeconds float64
}

// SeedRaises are the declared seed raises, in declaration order.
var SeedRaises = []SeedRaise{
	// fig1 to 1,000 seeds: the bootstrap over the committed 200 (reproduction/power) put
	// P(decided) near 0.8 for both statements at about 450 and 1,000 seeds; 1,000 serves both.
	{Figure: "fig1", From: 200, To: 1000, PlanCellSeconds: 1260,
		For: []string{"s4.1-cost-does-not-compound", "fig1-caption-random-degrades"}},
	// fig-peers' SVR curves of DP-GIBO (mu = 1 and 0.2) and GIBO to 60 seeds, in a block of
	// their own (seeds 21-60): the power analysis put s4.3-private-gap-uniformly-larger's
	// P(decided) near 0.8 at 45-60 seeds.
	{Figure: "fig-peers", Task: "svr", Methods: []string{"dpgibo", "gibo"}, From: 20, To: 60, PlanCellSeconds: 6510,
		For: []string{"s4.3-private-gap-uniformly-larger"}},
}

// Reads reports whether the claim reads a curve the raise raised.
func (r SeedRaise) Reads(c Claim) bool {
	if c.Figure != r.Figure {
		return false
	}
	for _, s := range []Side{c.A, c.B, c.Along} {
		if s.Method == "" {
			continue
		}
		if (r.Task == "" || s.Task == "" || s.Task == r.Task) && (r.Methods == nil || slices.Contains(r.Methods, s.Method) || slices.Contains(r.Methods, s.Minus)) {
			return true
		}
	}
	return false
}
