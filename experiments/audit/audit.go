// Package audit tests the mu-GDP claim of DP-GIBO (and of the private baselines) empirically.
//
// It runs the complete released mechanism many times on two neighbouring validation datasets
// X and X' built as a worst case (see linearNeighbour), applies threshold tests to the released
// hyperparameter along the direction in which the datasets differ, and turns the false-positive
// and false-negative rates of the best test into a point estimate mu_hat and a
// Clopper-Pearson lower confidence bound mu_lb on the mu that the observed separation implies
// (a mu-GDP mechanism has beta >= Phi(Phi^{-1}(1-alpha) - mu) for every test). A mechanism
// passes when mu_lb <= mu claimed. Negative controls, mechanisms that are deliberately broken
// and whose names start with "control:", must read "violation": an audit that cannot catch
// them is not an audit.
package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"

	"dpgibo/baselines/bo"
	"dpgibo/figures/stats"
	"dpgibo/internal/pool"
	"dpgibo/internal/records"
)

// Mechanism names audited by default, in table order. Names starting with controlPrefix are
// negative controls.
const (
	// DPGIBO is Algorithm 1 with the plain gradient step (StepRule GradientDescent), the
	// configuration whose audit is tight.
	DPGIBO = "dp-gibo"
	// dpgiboAdaGrad is Algorithm 1 with the AdaGrad step of the paper's experiments.
	dpgiboAdaGrad = "dp-gibo-adagrad"
	// ControlNoiseHalved runs the real algo.Minimize with Mu doubled while claiming the
	// configured Mu: its noise standard deviation is half of what the claim requires.
	ControlNoiseHalved = controlPrefix + "noise-halved"
	// controlNoiseThird runs the real algo.Minimize with Mu tripled while claiming the
	// configured Mu: a third of the noise.
	controlNoiseThird = controlPrefix + "noise-third"
	// controlNoClip runs the real algo.Minimize with a clipping norm so large that user 0's
	// gradient is never clipped, and Mu scaled by the same factor so that the noise standard
	// deviation 2*Clip*sqrt(T)/(n*Mu) is the one the claim calibrates for the configured Clip.
	controlNoClip = controlPrefix + "no-clip"
	// controlPrefix starts the name of every negative control.
	controlPrefix = "control:"
)

// Verdicts of a row.
const (
	pass      = "pass"
	violation = "violation"
)

// config configures an audit. The zero value of every field means the default given in its
// comment (DefaultConfig spells them out).
type config struct {
	// Runs is R, the number of runs of each mechanism on each dataset (default 5000). Half
	// of them pick the threshold test, the other half measure it.
	Runs int
	// Iters is T, DP-GIBO's number of iterations (default 10).
	Iters int
	// Mu is the claimed total mu of mu-GDP (default 1).
	Mu float64
	// Users is n, the number of validation users (default 10).
	Users int
	// Dim is the number of hyperparameters (default 1; see linearNeighbour for why 1 gives
	// a tight audit). The statistic is the released theta's first coordinate.
	Dim int
	// Clip is B, DP-GIBO's clipping norm (default 1).
	Clip float64
	// Slope is the norm of user 0's loss gradient (default 4*Clip). It must be large enough
	// that user 0's surrogate gradient is clipped at every iterate; Audit checks this on
	// noiseless runs.
	Slope float64
	// Step is eta (default 1).
	Step float64
	// HalfWidth is the half-width of the box [-HalfWidth, HalfWidth]^Dim (default 100: with
	// the defaults the released theta has standard deviation 2 and mean +-1, so projection
	// onto the box never binds for the gradient-descent row).
	HalfWidth float64
	// NoClipFactor sets the clipping norm of controlNoClip to NoClipFactor*Slope
	// (default 100), far above any surrogate gradient of user 0.
	NoClipFactor float64
	// Seed seeds every run; run r of mechanism m on dataset X or X' has its own stream, so
	// results do not depend on Workers.
	Seed uint64
	// Mechanisms lists the mechanisms to audit by name (default: dp-gibo, dp-gibo-adagrad,
	// control:noise-halved, control:no-clip, dp-random, dp-ucb,
	// control:dp-random-noise-halved, the adaptive-clipping and clip-calibration rows and their
	// controls; knownMechanisms lists them all).
	Mechanisms []string
	// Confidence is the confidence level of mu_lb (default 0.95).
	Confidence float64
	// BaselineBudget is K (dp-random) and N (dp-ucb), the number of released scores of
	// the private baselines (default 10).
	BaselineBudget int
	// LossBound is Lmax of the private baselines' neighbours (default 1).
	LossBound float64
	// SelectionMu sets the claim of the private selections with a random number of trials:
	// (epsilon, delta)-DP at epsilon = accounting.EpsilonForDelta(SelectionMu, 1e-5), their
	// primary currency (default 0.5: epsilon 1.993, small enough that their controls'
	// separations exceed it within R runs).
	SelectionMu float64
	// SelectionBudget is the mean number of trials of those selections (default 20).
	SelectionBudget int
	// TrialRuns is R for the rows whose runs are cheap and whose statistic needs many: the
	// selections' trial rows and dp-rnm's (default 1,000,000: a tight Gaussian row at
	// DP-HyPO's per-trial mu of 0.07 then has an expected lower bound near 0.9 of its claim).
	TrialRuns int
	// RNMCandidates is the number of candidates of dp-rnm's pair (default 10).
	RNMCandidates int
	// UCB configures dp-ucb's GP-UCB loop; the zero value uses the baselines' defaults.
	// These settings act on released scores only (post-processing), so lighter ones
	// change the run time, not the privacy audited.
	UCB bo.UCBConfig
	// ClipQuantile, ClipRate and ClipCountShare configure the adaptive-clipping mechanisms
	// (algo.AdaptiveClip; defaults 0.5, 0.2 and 0.5: half of mu^2 on the counts, so that the
	// count audit has a mu_c near the gradient audits' mu).
	ClipQuantile, ClipRate, ClipCountShare float64
	// CalibrationShare and CalibrationQueries configure the clip-calibration mechanisms
	// (algo.ClipCalibration; defaults 0.98 and 2: almost all of mu^2 on two counts, so that
	// each count's mu, 0.7 at Mu = 1, is near the other audits' and the count audit has
	// the power to flag its control).
	CalibrationShare   float64
	CalibrationQueries int
	// Workers is the number of concurrent runs (default min(2, GOMAXPROCS)).
	Workers int
	// Progress, when non-nil, receives a progress bar.
	Progress io.Writer
}

// DefaultConfig is the audit of the -suite=audit: R = 5000 runs per dataset and mechanism.
func DefaultConfig() config {
	return config{
		Runs:         5000,
		Iters:        10,
		Mu:           1,
		Users:        10,
		Dim:          1,
		Clip:         1,
		Slope:        4,
		Step:         1,
		HalfWidth:    100,
		NoClipFactor: 100,
		Seed:         1,
		Mechanisms: append(append([]string{DPGIBO, dpgiboAdaGrad, ControlNoiseHalved, controlNoiseThird, controlNoClip, dpRandom, dpucb, controlDPRandomNoiseHalved,
			dpucbScaled, dpZO, controlDPZONoiseHalved,
			dpgiboAdaptive, dpgiboAdaptiveCounts, controlAdaptiveCountNoiseHalved,
			dpgiboCalibrated, dpgiboCalibrationCount, controlCalibrationNoiseHalved},
			selectionNames()...), append(safeReleaseNames(), tuneNames()...)...),
		Confidence:         0.95,
		ClipQuantile:       0.5,
		ClipRate:           0.2,
		ClipCountShare:     0.5,
		CalibrationShare:   0.98,
		CalibrationQueries: 2,
		BaselineBudget:     10,
		LossBound:          1,
		SelectionMu:        0.5,
		SelectionBudget:    20,
		TrialRuns:          1000000,
		RNMCandidates:      10,
	}
}

// QuickConfig is the small audit of -suite=quick and of the tests: a few hundred runs per
// dataset, the gradient-descent mechanism, dp-random and the three controls (dp-ucb, about
// 20 ms a run, is left to the full audit), a few seconds.
func QuickConfig() config {
	c := DefaultConfig()
	c.Runs = 400
	c.Iters = 5
	c.Mechanisms = []string{DPGIBO, ControlNoiseHalved, controlNoClip, dpRandom, controlDPRandomNoiseHalved,
		dpgiboAdaptive, dpgiboAdaptiveCounts, controlAdaptiveCountNoiseHalved,
		dpgiboCalibrated, dpgiboCalibrationCount, controlCalibrationNoiseHalved}
	return c
}

// withDefaults fills zero fields and validates.
func (c config) withDefaults() (config, error) {
	d := DefaultConfig()
	c.Runs = cmp.Or(c.Runs, d.Runs)
	c.Iters = cmp.Or(c.Iters, d.Iters)
	c.Mu = cmp.Or(c.Mu, d.Mu)
	c.Users = cmp.Or(c.Users, d.Users)
	c.Dim = cmp.Or(c.Dim, d.Dim)
	c.Clip = cmp.Or(c.Clip, d.Clip)
	c.Slope = cmp.Or(c.Slope, 4*c.Clip)
	c.Step = cmp.Or(c.Step, d.Step)
	c.HalfWidth = cmp.Or(c.HalfWidth, d.HalfWidth)
	c.NoClipFactor = cmp.Or(c.NoClipFactor, d.NoClipFactor)
	if len(c.Mechanisms) == 0 {
		c.Mechanisms = d.Mechanisms
	}
	c.Confidence = cmp.Or(c.Confidence, d.Confidence)
	c.BaselineBudget = cmp.Or(c.BaselineBudget, d.BaselineBudget)
	c.LossBound = cmp.Or(c.LossBound, d.LossBound)
	c.SelectionMu = cmp.Or(c.SelectionMu, d.SelectionMu)
	c.SelectionBudget = cmp.Or(c.SelectionBudget, d.SelectionBudget)
	c.TrialRuns = cmp.Or(c.TrialRuns, d.TrialRuns)
	c.RNMCandidates = cmp.Or(c.RNMCandidates, d.RNMCandidates)
	c.ClipQuantile = cmp.Or(c.ClipQuantile, d.ClipQuantile)
	c.ClipRate = cmp.Or(c.ClipRate, d.ClipRate)
	c.ClipCountShare = cmp.Or(c.ClipCountShare, d.ClipCountShare)
	c.CalibrationShare = cmp.Or(c.CalibrationShare, d.CalibrationShare)
	c.CalibrationQueries = cmp.Or(c.CalibrationQueries, d.CalibrationQueries)
	if c.Workers == 0 {
		c.Workers = min(2, runtime.GOMAXPROCS(0))
	}
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(c.Runs >= 8, "Runs must be at least 8, got %d", c.Runs)
	check(c.Iters > 0, "Iters must be positive, got %d", c.Iters)
	check(c.Mu > 0 && !math.IsInf(c.Mu, 0), "Mu must be positive and finite, got %v", c.Mu)
	check(c.Users > 0, "Users must be positive, got %d", c.Users)
	check(c.Dim > 0, "Dim must be positive, got %d", c.Dim)
	check(c.Clip > 0 && !math.IsInf(c.Clip, 0), "Clip must be positive and finite, got %v", c.Clip)
	check(c.Slope > 0 && !math.IsInf(c.Slope, 0), "Slope must be positive and finite, got %v", c.Slope)
	check(c.Step > 0 && !math.IsInf(c.Step, 0), "Step must be positive and finite, got %v", c.Step)
	check(c.HalfWidth > 0 && !math.IsInf(c.HalfWidth, 0), "HalfWidth must be positive and finite, got %v", c.HalfWidth)
	check(c.NoClipFactor > 1 && !math.IsInf(c.NoClipFactor, 0), "NoClipFactor must exceed 1, got %v", c.NoClipFactor)
	check(c.Confidence > 0 && c.Confidence < 1, "Confidence must lie in (0, 1), got %v", c.Confidence)
	check(c.BaselineBudget > 0, "BaselineBudget must be positive, got %d", c.BaselineBudget)
	check(c.LossBound > 0 && !math.IsInf(c.LossBound, 0), "LossBound must be positive and finite, got %v", c.LossBound)
	check(c.SelectionMu > 0 && !math.IsInf(c.SelectionMu, 0), "SelectionMu must be positive and finite, got %v", c.SelectionMu)
	check(c.SelectionBudget >= 2, "SelectionBudget must be at least 2, got %d", c.SelectionBudget)
	check(c.TrialRuns >= 8, "TrialRuns must be at least 8, got %d", c.TrialRuns)
	check(c.RNMCandidates >= 2, "RNMCandidates must be at least 2, got %d", c.RNMCandidates)
	check(c.Workers > 0, "Workers must be positive, got %d", c.Workers)
	check(c.ClipQuantile > 0 && c.ClipQuantile < 1, "ClipQuantile must lie in (0, 1), got %v", c.ClipQuantile)
	check(c.ClipRate > 0 && !math.IsInf(c.ClipRate, 0), "ClipRate must be positive and finite, got %v", c.ClipRate)
	check(c.ClipCountShare > 0 && c.ClipCountShare < 1, "ClipCountShare must lie in (0, 1), got %v", c.ClipCountShare)
	check(c.CalibrationShare > 0 && c.CalibrationShare < 1, "CalibrationShare must lie in (0, 1), got %v", c.CalibrationShare)
	check(c.CalibrationQueries >= 1 && c.CalibrationQueries <= 16, "CalibrationQueries must lie in [1, 16], got %d", c.CalibrationQueries)
	if len(errs) > 0 {
		return c, fmt.Errorf("audit: invalid Config: %w", errors.Join(errs...))
	}
	return c, nil
}

// mechanism is one audited row: a name, the mu it claims, and Run, which runs the complete
// mechanism once on dataset X (prime false) or X' (prime true) with randomness from rng and
// returns the statistic on which the threshold tests act (for DP-GIBO, the released theta's
// first coordinate). Run must be safe for concurrent use.
type mechanism struct {
	Name      string
	MuClaimed float64
	// EpsClaimed and DeltaClaimed, when EpsClaimed > 0, make the claim (epsilon, delta)-DP
	// instead of mu-GDP (MuClaimed is then NaN): the audit chooses and measures its test by
	// epsSeparation and the row passes when eps_lb <= eps_claimed.
	EpsClaimed, DeltaClaimed float64
	// Runs is the row's R (0: config.Runs).
	Runs int
	// Population, when positive, is the exact population mu (or epsilon) of the real
	// mechanism's test on this row's pair, computed from pinned numbers (population.go): a
	// control then reads `violation` when its lower bound exceeds it, and the real mechanism
	// does when its p-value against it, Holm-adjusted over the real rows with a population,
	// is below 1 - Confidence.
	Population float64
	Run        func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error)
}

// row is one line of audit.csv.
type row struct {
	Mechanism string  `csv:"mechanism"`
	MuClaimed float64 `csv:"mu_claimed"`
	MuHat     float64 `csv:"mu_hat"`
	MuLB      float64 `csv:"mu_lb"`
	Runs      int     `csv:"R"`
	Verdict   string  `csv:"verdict"`
	// The remaining columns detail the chosen test (held-out half).
	Tightness float64 `csv:"mu_hat_over_mu"`
	Threshold float64 `csv:"threshold"`
	Above     bool    `csv:"says_prime_above"`
	FPR       float64 `csv:"fpr"`
	FNR       float64 `csv:"fnr"`
	FPRUpper  float64 `csv:"fpr_upper"`
	FNRUpper  float64 `csv:"fnr_upper"`
	// EpsClaimed, DeltaClaimed, EpsHat and EpsLB are an (epsilon, delta) claim's row
	// (empty for a mu claim, whose MuClaimed they replace: it is NaN then).
	EpsClaimed   records.OptFloat `csv:"eps_claimed"`
	DeltaClaimed records.OptFloat `csv:"delta_claimed"`
	EpsHat       records.OptFloat `csv:"eps_hat"`
	EpsLB        records.OptFloat `csv:"eps_lb"`
	// LBOverClaim is the lower bound over the claim (mu_lb/mu or eps_lb/eps): 0.8 or more
	// makes the row tight.
	LBOverClaim float64 `csv:"lb_over_claim"`
	// Population is the exact population value of the real mechanism's test on the row's
	// pair (empty where none is computed); PValue the p-value of "the row's true value is at
	// most Population" (real mechanisms only), HolmP its Holm adjustment over those rows.
	Population records.OptFloat `csv:"population"`
	PValue     records.OptFloat `csv:"p_population"`
	HolmP      records.OptFloat `csv:"p_holm"`
}

// verdict is pass when the lower bound muLB (or epsilon's) is at most the claim and
// violation otherwise.
func verdict(muLB, muClaimed float64) string {
	if muLB <= muClaimed {
		return pass
	}
	return violation
}

// Audit runs every configured mechanism Runs times on each of X and X' and returns one row
// per mechanism, in the configured order.
func Audit(ctx context.Context, cfg config) ([]row, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	mechs, err := mechanisms(cfg)
	if err != nil {
		return nil, err
	}
	if err := checkWorstCase(ctx, cfg); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(cfg.Mechanisms, func(m string) bool { return slices.Contains(adaptiveNames(), m) }) {
		if err := checkFlip(ctx, cfg); err != nil {
			return nil, err
		}
	}
	if slices.ContainsFunc(cfg.Mechanisms, func(m string) bool { return slices.Contains(calibrationNames(), m) }) {
		if err := checkCalibrationFlip(ctx, cfg); err != nil {
			return nil, err
		}
	}
	return auditMechanisms(ctx, cfg, mechs)
}

// auditMechanisms audits the given mechanisms with cfg's Runs (or each mechanism's own),
// Seed, Confidence, Workers and Progress.
func auditMechanisms(ctx context.Context, cfg config, mechs []mechanism) ([]row, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	runs := make([]int, len(mechs))
	first := make([]int, len(mechs)+1) // job index of each mechanism's first run
	outs := make([][2][]float64, len(mechs))
	streams := make([]uint64, len(mechs))
	for m, mech := range mechs {
		runs[m] = cmp.Or(mech.Runs, cfg.Runs)
		first[m+1] = first[m] + 2*runs[m]
		outs[m] = [2][]float64{make([]float64, runs[m]), make([]float64, runs[m])}
		h := fnv.New64a()
		h.Write([]byte(mech.Name))
		streams[m] = h.Sum64()
	}

	// Job i of mechanism m is run (i - first[m])/2 on dataset i%2.
	firstErr := pool.RunWithProgress(ctx, cfg.Workers, first[len(mechs)], cfg.Progress, "audit", func(ctx context.Context, i int) error {
		m := sort.SearchInts(first, i+1) - 1
		run, prime := (i-first[m])/2, (i-first[m])%2
		rng := rand.New(rand.NewPCG(cfg.Seed^streams[m], uint64(prime)<<32|uint64(run)))
		v, err := mechs[m].Run(ctx, prime == 1, rng)
		if err == nil && math.IsNaN(v) {
			err = errors.New("statistic is NaN")
		}
		if err != nil {
			return fmt.Errorf("audit: %s, dataset %s, run %d: %w", mechs[m].Name, datasetName(prime), run, err)
		}
		outs[m][prime][run] = v
		return nil
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}

	rows := make([]row, len(mechs))
	for m, mech := range mechs {
		row := row{Mechanism: mech.Name, MuClaimed: mech.MuClaimed, Runs: runs[m]}
		var est estimate
		claim, lb := mech.MuClaimed, 0.0
		if mech.EpsClaimed > 0 {
			if est, err = estimateEps(outs[m][0], outs[m][1], mech.DeltaClaimed, cfg.Confidence); err != nil {
				return nil, fmt.Errorf("audit: %s: %w", mech.Name, err)
			}
			row.MuClaimed, row.Tightness = math.NaN(), math.NaN()
			row.EpsClaimed, row.DeltaClaimed = records.Some(mech.EpsClaimed), records.Some(mech.DeltaClaimed)
			row.EpsHat, row.EpsLB = records.Some(est.EpsHat), records.Some(est.EpsLB)
			claim, lb = mech.EpsClaimed, est.EpsLB
		} else {
			if est, err = EstimateMu(outs[m][0], outs[m][1], cfg.Confidence); err != nil {
				return nil, fmt.Errorf("audit: %s: %w", mech.Name, err)
			}
			row.Tightness, lb = est.MuHat/mech.MuClaimed, est.MuLB
		}
		row.MuHat, row.MuLB, row.Threshold, row.Above = est.MuHat, est.MuLB, est.Threshold, est.Above
		row.FPR, row.FNR, row.FPRUpper, row.FNRUpper = est.FPR, est.FNR, est.FPRUpper, est.FNRUpper
		row.LBOverClaim = lb / claim
		row.Verdict = verdict(lb, claim)
		if mech.Population > 0 {
			row.Population = records.Some(mech.Population)
			if isControl(mech.Name) {
				row.Verdict = verdict(lb, mech.Population)
			} else {
				row.PValue = records.Some(populationPValue(est, mech))
			}
		}
		rows[m] = row
	}
	holm(rows, 1-cfg.Confidence)
	return rows, nil
}

// populationPValue is the p-value of "the mechanism's true mu (or epsilon) on its test is at
// most its Population", from the held-out rates of the chosen test: the smallest a at which
// the lower bound at confidence 1 - a (each rate's Clopper-Pearson bound at 1 - a/2)
// exceeds Population, found by bisection on log a; 1 when even the point estimate does not.
func populationPValue(est estimate, mech mechanism) float64 {
	n := est.Evaluation
	fp, fn := int(math.Round(est.FPR*float64(n))), int(math.Round(est.FNR*float64(n)))
	sep := gdpSeparation
	if mech.EpsClaimed > 0 {
		sep = func(a, b float64) float64 { return epsSeparation(a, b, mech.DeltaClaimed) }
	}
	exceeds := func(a float64) bool {
		au, err1 := clopperPearsonUpper(fp, n, 1-a/2)
		bu, err2 := clopperPearsonUpper(fn, n, 1-a/2)
		return err1 == nil && err2 == nil && sep(au, bu) > mech.Population
	}
	lo, hi := math.Log(1e-300), 0.0
	switch {
	case !exceeds(math.Nextafter(1, 0)):
		return 1
	case exceeds(math.Exp(lo)):
		return 1e-300
	}
	for hi-lo > 1e-9 {
		mid := 0.5 * (lo + hi)
		if exceeds(math.Exp(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Exp(hi)
}

// holm sets the Holm-adjusted p-values (stats.Holm) of the rows with one (the real
// mechanisms judged against a population value) and marks `violation` where the adjusted
// p-value is below alpha.
func holm(rows []row, alpha float64) {
	var idx []int
	var p []float64
	for i, r := range rows {
		if r.PValue.Valid {
			idx, p = append(idx, i), append(p, r.PValue.Value)
		}
	}
	for j, adj := range stats.Holm(p) {
		rows[idx[j]].HolmP = records.Some(adj)
		if adj < alpha {
			rows[idx[j]].Verdict = violation
		}
	}
}

func datasetName(prime int) string {
	if prime == 1 {
		return "X'"
	}
	return "X"
}

// isControl reports whether a mechanism name is a negative control.
func isControl(name string) bool { return strings.HasPrefix(name, controlPrefix) }

// knownMechanisms lists the names mechanisms accepts.
func knownMechanisms() []string {
	names := append([]string{DPGIBO, dpgiboAdaGrad, ControlNoiseHalved, controlNoiseThird, controlNoClip}, baselineNames()...)
	return append(append(append(append(append(names, adaptiveNames()...), calibrationNames()...), selectionNames()...), safeReleaseNames()...), tuneNames()...)
}

// mechanisms builds the configured mechanisms. An unknown name is an error listing the known
// ones.
func mechanisms(cfg config) ([]mechanism, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	known := knownMechanisms()
	out := make([]mechanism, 0, len(cfg.Mechanisms))
	for _, name := range cfg.Mechanisms {
		if !slices.Contains(known, name) {
			return nil, fmt.Errorf("audit: unknown mechanism %q (known: %s)", name, strings.Join(known, ", "))
		}
		m, err := buildMechanism(cfg, name)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
