package verdict

import "fmt"

// Margins of the "not worse than" and equivalence claims, relative to the median of the
// reference curve (B). Declared with the claims, before the runs that judge them.
const (
	// TrackMargin: "DP-GIBO tracks GIBO closely", "competitive", "about equal".
	TrackMargin = 0.10
)

// PaperClaims returns the claims of the paper's figures as this project tests them, one per
// sentence of the paper's section 4 and appendix "Examples" that a figure supports.
func PaperClaims() []Claim {
	var out []Claim
	// fig1: group LASSO across d (section 4.1 and the caption of the group LASSO figure).
	out = append(out,
		Claim{ID: "fig1-random-competitive-d2", Figure: "fig1", Kind: NotWorse, Margin: TrackMargin,
			Statement: "At d = 2 random search is competitive: its final loss is not worse than GIBO's by more than 10%.",
			A:         Side{Method: "random", D: 2}, B: Side{Method: "gibo", D: 2}},
		Claim{ID: "fig1-random-degrades-with-d", Figure: "fig1", Kind: Higher, Metric: "log_gap",
			Statement: "Random search degrades sharply as d grows: its log suboptimality log(f - f*) is higher at d = 20 than at d = 2.",
			A:         Side{Method: "random", D: 20}, B: Side{Method: "random", D: 2}},
	)
	for _, d := range []int{10, 20} {
		out = append(out,
			Claim{ID: fmt.Sprintf("fig1-gibo-vs-random-d%d", d), Figure: "fig1", Kind: Lower,
				Statement: fmt.Sprintf("At d = %d GIBO reaches a lower final loss than random search.", d),
				A:         Side{Method: "gibo", D: d}, B: Side{Method: "random", D: d}},
			Claim{ID: fmt.Sprintf("fig1-dp-vs-random-d%d", d), Figure: "fig1", Kind: Lower,
				Statement: fmt.Sprintf("At d = %d DP-GIBO reaches a lower final loss than random search.", d),
				A:         Side{Method: "dpgibo", D: d}, B: Side{Method: "random", D: d}},
		)
	}
	for _, d := range []int{2, 10, 20} {
		out = append(out, Claim{ID: fmt.Sprintf("fig1-dp-tracks-gibo-d%d", d), Figure: "fig1", Kind: NotWorse, Margin: TrackMargin,
			Statement: fmt.Sprintf("At d = %d DP-GIBO tracks GIBO closely: its final loss is not worse than GIBO's by more than 10%%.", d),
			A:         Side{Method: "dpgibo", D: d}, B: Side{Method: "gibo", D: d}})
	}

	// fig2a: GP regression across d (section 4.2 and the caption of the experiments figure).
	for _, base := range []string{"random", "ucb"} {
		out = append(out, Claim{ID: "fig2a-dp-competitive-" + base + "-d2", Figure: "fig2a", Kind: NotWorse, Margin: TrackMargin,
			Statement: fmt.Sprintf("At d = 2 all methods are competitive: DP-GIBO's final loss is not worse than %s's by more than 10%%.", methodWords(base)),
			A:         Side{Method: "dpgibo", D: 2}, B: Side{Method: base, D: 2}})
		for _, d := range []int{5, 10} {
			out = append(out, Claim{ID: fmt.Sprintf("fig2a-dp-vs-%s-d%d", base, d), Figure: "fig2a", Kind: Lower,
				Statement: fmt.Sprintf("At d = %d DP-GIBO reaches a lower final loss than %s, which plateaus higher.", d, methodWords(base)),
				A:         Side{Method: "dpgibo", D: d}, B: Side{Method: base, D: d}})
		}
	}

	// fig2b (SVR, stand-in data offline) and fig2b-real (681 real CT-slice rows): section 4.3.
	for _, fig := range []string{"fig2b", "fig2b-real"} {
		out = append(out,
			Claim{ID: fig + "-dp-tracks-gibo", Figure: fig, Kind: NotWorse, Margin: TrackMargin,
				Statement: "DP-GIBO closely matches GIBO on the SVR task: its final loss is not worse than GIBO's by more than 10%.",
				A:         Side{Method: "dpgibo", D: 103}, B: Side{Method: "gibo", D: 103}},
			Claim{ID: fig + "-dp-vs-random", Figure: fig, Kind: Lower,
				Statement: "DP-GIBO clearly outperforms random search on the SVR task (lower final loss).",
				A:         Side{Method: "dpgibo", D: 103}, B: Side{Method: "random", D: 103}},
		)
	}

	// fig3ab: bias tolerance epsilon (appendix, GP regression d = 15).
	eps := []string{"bias_tol=0.1", "bias_tol=0.3", "bias_tol=0.5", "bias_tol=1", "bias_tol=2"}
	dp15 := Side{Method: "dpgibo", D: 15}
	out = append(out,
		Claim{ID: "fig3ab-evals-fall-with-eps", Figure: "fig3ab", Kind: Trend, Metric: "evals", Along: dp15, Configs: eps,
			Statement: "A higher epsilon needs fewer function evaluations to complete all iterations."},
		Claim{ID: "fig3ab-loss-rises-with-eps", Figure: "fig3ab", Kind: Trend, Along: dp15, Configs: eps, Increasing: true,
			Statement: "A higher epsilon gives a worse final loss."},
		Claim{ID: "fig3ab-eps03-like-eps05", Figure: "fig3ab", Kind: Equivalent, Margin: TrackMargin,
			Statement: "epsilon = 0.3 and epsilon = 0.5 produce roughly the same final loss (within 10% of epsilon = 0.5's median).",
			A:         Side{Method: "dpgibo", Config: "bias_tol=0.3", D: 15}, B: Side{Method: "dpgibo", Config: "bias_tol=0.5", D: 15}},
	)
	// fig3c: privacy level at moderate n.
	out = append(out,
		Claim{ID: "fig3c-loss-falls-with-mu", Figure: "fig3c", Kind: Trend, Along: dp15,
			Configs:   []string{"mu=0.1", "mu=0.5", "mu=1", "mu=+Inf"},
			Statement: "Weaker privacy (larger mu) gives a lower final loss at moderate n."},
		Claim{ID: "fig3c-strong-privacy-gap", Figure: "fig3c", Kind: Higher,
			Statement: "High levels of privacy come at a significant suboptimality cost: mu = 0.1 ends with a higher loss than no privacy.",
			A:         Side{Method: "dpgibo", Config: "mu=0.1", D: 15}, B: Side{Method: "dpgibo", Config: "mu=+Inf", D: 15}},
	)
	// fig3d: evaluation noise.
	for _, sigma := range []string{"0.001", "0.01"} {
		out = append(out, Claim{ID: "fig3d-noise-" + sigma + "-like-none", Figure: "fig3d", Kind: Equivalent, Margin: TrackMargin,
			Statement: fmt.Sprintf("Low noise (sigma = %s) performs like no noise (final losses within 10%%).", sigma),
			A:         Side{Method: "dpgibo", Config: "noise=" + sigma, D: 15}, B: Side{Method: "dpgibo", Config: "noise=0", D: 15}})
	}
	out = append(out, Claim{ID: "fig3d-large-noise-suffers", Figure: "fig3d", Kind: Higher,
		Statement: "The large-noise regime (sigma = 1) suffers: a higher final loss than no noise.",
		A:         Side{Method: "dpgibo", Config: "noise=1", D: 15}, B: Side{Method: "dpgibo", Config: "noise=0", D: 15}})
	// noise-misspec: sensitivity to sigma.
	correct := Side{Method: "dpgibo", Config: "noise_std=0.01", D: 15}
	over := Side{Method: "dpgibo", Config: "noise_std=1", D: 15}
	under := Side{Method: "dpgibo", Config: "noise_std=0.0001", D: 15}
	random := Side{Method: "random", D: 15}
	out = append(out,
		Claim{ID: "misspec-correct-beats-over", Figure: "noise-misspec", Kind: Lower, A: correct, B: over,
			Statement: "The correct sigma = 0.01 gives a lower final loss than the overestimate sigma = 1."},
		Claim{ID: "misspec-correct-beats-under", Figure: "noise-misspec", Kind: Lower, A: correct, B: under,
			Statement: "The correct sigma = 0.01 gives a lower final loss than the underestimate sigma = 1e-4."},
		Claim{ID: "misspec-over-viable", Figure: "noise-misspec", Kind: NotWorse, Margin: TrackMargin, A: over, B: random,
			Statement: "The overestimate sigma = 1 is conservative but viable: not worse than random search by more than 10%."},
		Claim{ID: "misspec-under-worse-than-random", Figure: "noise-misspec", Kind: Higher, A: under, B: random,
			Statement: "Underestimating sigma (1e-4) performs worse than random search."},
	)
	// clip-sweep: sensitivity to B.
	out = append(out, Claim{ID: "clip-loss-rises-with-B", Figure: "clip-sweep", Kind: Trend, Along: dp15, Increasing: true,
		Configs:   []string{"clip=0.1", "clip=1", "clip=10", "clip=100"},
		Statement: "The final loss is sensitive to B: it rises with B over {0.1, 1, 10, 100} (the privacy noise grows with B)."})
	return out
}

// PrivateClaims returns the claims of fig-private (every method private at equal mu and
// budget): DP-GIBO against the private global baselines where their gap is the question.
func PrivateClaims() []Claim {
	var out []Claim
	for _, mu := range []string{"mu=1", "mu=0.2"} {
		for _, d := range []int{10, 20} {
			for _, base := range []string{"dp-random", "dp-ucb"} {
				out = append(out, Claim{ID: fmt.Sprintf("private-grouplasso-dp-vs-%s-d%d-%s", base, d, mu), Figure: "fig-private", Kind: Lower,
					Statement: fmt.Sprintf("Group LASSO, d = %d, %s: DP-GIBO reaches a lower final loss than %s.", d, mu, methodWords(base)),
					A:         Side{Task: "grouplasso", Method: "dpgibo", Config: mu, D: d}, B: Side{Task: "grouplasso", Method: base, Config: mu, D: d}})
			}
		}
		out = append(out,
			Claim{ID: "private-gpreg-dp-vs-dp-random-d10-" + mu, Figure: "fig-private", Kind: Lower,
				Statement: fmt.Sprintf("GP regression, d = 10, %s: DP-GIBO reaches a lower final loss than DP random search.", mu),
				A:         Side{Task: "gpreg", Method: "dpgibo", Config: mu, D: 10}, B: Side{Task: "gpreg", Method: "dp-random", Config: mu, D: 10}},
			Claim{ID: "private-svr-dp-vs-dp-random-" + mu, Figure: "fig-private", Kind: Lower,
				Statement: fmt.Sprintf("SVR, d = 103, %s: DP-GIBO reaches a lower final loss than DP random search.", mu),
				A:         Side{Task: "svr", Method: "dpgibo", Config: mu, D: 103}, B: Side{Task: "svr", Method: "dp-random", Config: mu, D: 103}},
		)
	}
	return out
}

// PeersClaims returns the claims of fig-peers (DP-GIBO beside goptuna's TPE and CMA-ES at
// equal budget): at every task and d of the figure, DP-GIBO at mu = 1 is not worse than
// each peer by more than 10% of the peer's median final loss.
func PeersClaims() []Claim {
	var out []Claim
	for _, s := range []struct {
		task string
		d    int
	}{{"grouplasso", 10}, {"grouplasso", 20}, {"gpreg", 5}, {"gpreg", 10}, {"svr", 103}} {
		for _, peer := range []string{"tpe", "cmaes"} {
			out = append(out, Claim{ID: fmt.Sprintf("peers-%s-d%d-dp-vs-%s", s.task, s.d, peer), Figure: "fig-peers", Kind: NotWorse, Margin: TrackMargin,
				Statement: fmt.Sprintf("%s, d = %d: DP-GIBO at mu = 1 is not worse than %s by more than 10%%.", taskWords(s.task), s.d, methodWords(peer)),
				A:         Side{Task: s.task, Method: "dpgibo", Config: "mu=1", D: s.d}, B: Side{Task: s.task, Method: peer, D: s.d}})
		}
	}
	return out
}

// Claims returns every declared claim.
func Claims() []Claim {
	out := append(PaperClaims(), PrivateClaims()...)
	return append(out, PeersClaims()...)
}

// taskWords names a task in a sentence.
func taskWords(task string) string {
	switch task {
	case "grouplasso":
		return "Group LASSO"
	case "gpreg":
		return "GP regression"
	case "svr":
		return "SVR"
	}
	return task
}

// methodWords names a method in a sentence.
func methodWords(m string) string {
	switch m {
	case "random":
		return "random search"
	case "ucb":
		return "UCB-BO"
	case "gibo":
		return "GIBO"
	case "dpgibo":
		return "DP-GIBO"
	case "dp-random":
		return "DP random search"
	case "dp-ucb":
		return "DP-UCB"
	case "tpe":
		return "TPE"
	case "cmaes":
		return "CMA-ES"
	}
	return m
}
