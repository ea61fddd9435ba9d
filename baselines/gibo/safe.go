package gibo

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/baselines/selection"
	"dpgibo/tasks"
)

// Declared shares of mu^2 (docs/library.md, "The library's private tuner"), the values of
// the zero fields of Safe and Hybrid.
const (
	// DefaultReleaseShare is the share of mu^2 spent on the safe release.
	DefaultReleaseShare = 0.1
	// DefaultStartShare is the share of mu^2 the hybrid spends on choosing its start.
	DefaultStartShare = 0.2
)

// Safe is DP-GIBO with a safe release (registry name "dpgibo-safe"): DP-GIBO from Theta0
// with Mu sqrt(1 - ReleaseShare), then a Gaussian report-noisy-min between Theta0 and the
// last iterate with Mu sqrt(ReleaseShare) (selection.SelectionNoiseStd with 2
// candidates), so that a run whose gradients were mostly noise returns close to its start.
// The two parts compose to Settings.Mu-GDP. The release's two evaluations come out of the
// budget: DP-GIBO runs min(Iters, (budget-2)/b) iterations of its batch b (d+1 by
// default). Its callback sees DP-GIBO's iterations and the release last; its ledger
// composes DP-GIBO's parts and the release's.
type Safe struct {
	// Settings are DP-GIBO's; Mu is the total of both parts and must be set (math.Inf(1):
	// no noise anywhere, the release then keeps the better of the two exactly).
	Settings algo.Settings
	// Theta0 is the start, chosen without the validation data (nil: a uniform draw from the
	// box as the first draws from rng, as DPGIBO draws it).
	Theta0 []float64
	// ReleaseShare is the share of Mu^2 spent on the release (0: DefaultReleaseShare). It
	// must lie in (0, 1).
	ReleaseShare float64
	// LossBound is Lmax, a public bound on one user's loss, which every score is clipped
	// to (0: the objective's LossBound(); an objective without one is refused).
	LossBound float64
}

// Hybrid is the declared hybrid (registry name "dpgibo-hybrid"): a Gaussian
// report-noisy-min among d+1 candidates drawn without the data (Theta0 and d uniform points
// of the box) chooses the start for Mu sqrt(StartShare); DP-GIBO runs from it with
// Mu sqrt(1 - StartShare - ReleaseShare); the safe release chooses between the start and
// the last iterate with Mu sqrt(ReleaseShare). The choice of the start spends d+1
// evaluations and the release one more (the start's losses are kept from the first
// choice); DP-GIBO runs min(Iters, (budget-d-2)/b) iterations. Its callback sees the
// chosen start, DP-GIBO's iterations and then the release.
type Hybrid struct {
	// Settings, Theta0, ReleaseShare and LossBound are Safe's.
	Settings     algo.Settings
	Theta0       []float64
	ReleaseShare float64
	LossBound    float64
	// StartShare is the share of Mu^2 spent on choosing the start (0: DefaultStartShare).
	// StartShare + ReleaseShare must lie in (0, 1).
	StartShare float64
}

var (
	safeInfo   = baselines.Info{Name: "dpgibo-safe", Legend: "DP-GIBO (safe release)", Private: true, Local: true}
	hybridInfo = baselines.Info{Name: "dpgibo-hybrid", Legend: "DP-GIBO (hybrid)", Private: true, Local: true}
)

// Info implements baselines.Method.
func (Safe) Info() baselines.Info { return safeInfo }

// Info implements baselines.Method.
func (Hybrid) Info() baselines.Info { return hybridInfo }

// Run implements baselines.Method.
func (m Safe) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	return m.run().start(ctx, obj, m.Theta0, budget, rng, cb)
}

// Run implements baselines.Method.
func (m Hybrid) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	return m.run().start(ctx, obj, m.Theta0, budget, rng, cb)
}

// Sweeps implements baselines.Sweeper: every swept parameter.
func (Safe) Sweeps(string) bool { return true }

// Sweeps implements baselines.Sweeper: every swept parameter.
func (Hybrid) Sweeps(string) bool { return true }

// Check returns an error unless Settings.Mu is positive and the shares are in range.
func (m Safe) Check() error { return m.run().check() }

// Check returns an error unless Settings.Mu is positive and the shares are in range.
func (m Hybrid) Check() error { return m.run().check() }

// run is m's run.
func (m Safe) run() hybrid {
	return hybrid{name: safeInfo.Name, settings: m.Settings, releaseShare: m.ReleaseShare, lossBound: m.LossBound}
}

// run is m's run, StartShare's zero value taking DefaultStartShare.
func (m Hybrid) run() hybrid {
	return hybrid{name: hybridInfo.Name, settings: m.Settings, releaseShare: m.ReleaseShare, lossBound: m.LossBound,
		startShare: cmp.Or(m.StartShare, DefaultStartShare), chooseStart: true}
}

// MuSplit returns DP-GIBO's part of mu in Safe (hybrid false) or Hybrid (true) at the
// declared shares: the mu its gradients are forecast at.
func MuSplit(mu float64, hybrid bool) (float64, error) {
	h := Safe{}.run()
	if hybrid {
		h = Hybrid{}.run()
	}
	split, err := h.split(mu)
	return split.gibo, err
}

// hybrid is the run of Safe (chooseStart false) and Hybrid.
type hybrid struct {
	name                     string
	settings                 algo.Settings
	releaseShare, startShare float64
	lossBound                float64
	chooseStart              bool
}

// parts is the split of mu: DP-GIBO's, the start's and the release's.
type parts struct{ gibo, start, release float64 }

// split returns the split of mu by the shares of mu^2, or an error naming a share out of
// range.
func (h hybrid) split(mu float64) (parts, error) {
	if h.releaseShare == 0 {
		h.releaseShare = DefaultReleaseShare
	}
	if !(h.releaseShare > 0 && h.releaseShare < 1) {
		return parts{}, fmt.Errorf("gibo: %s: ReleaseShare must lie in (0, 1), got %v", h.name, h.releaseShare)
	}
	if h.chooseStart && !(h.startShare > 0 && h.startShare+h.releaseShare < 1) {
		return parts{}, fmt.Errorf("gibo: %s: StartShare must be positive with StartShare + ReleaseShare below 1, got %v + %v", h.name, h.startShare, h.releaseShare)
	}
	if math.IsInf(mu, 1) {
		return parts{mu, mu, mu}, nil
	}
	return parts{
		gibo:    mu * math.Sqrt(1-h.releaseShare-h.startShare),
		start:   mu * math.Sqrt(h.startShare),
		release: mu * math.Sqrt(h.releaseShare),
	}, nil
}

// check returns an error unless Settings.Mu is positive and the shares are in range.
func (h hybrid) check() error {
	if s := h.settings; math.IsNaN(s.Mu) || s.Mu <= 0 {
		return fmt.Errorf("gibo: %s: Settings.Mu must be positive (math.Inf(1) for no privacy noise), got %v", h.name, s.Mu)
	}
	_, err := h.split(h.settings.Mu)
	return err
}

// start runs h from theta0, or, when it is nil, from a uniform draw from the box as the
// first draws from rng.
func (h hybrid) start(ctx context.Context, obj algo.Objective, theta0 []float64, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := h.check(); err != nil {
		return baselines.Result{}, err
	}
	theta0, err := start(h.name, theta0, obj, budget, rng)
	if err != nil {
		return baselines.Result{}, err
	}
	return h.run(ctx, obj, theta0, budget, rng, cb)
}

func (h hybrid) run(ctx context.Context, obj algo.Objective, theta0 []float64, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	s := h.settings
	mu := s.Mu
	split, err := h.split(mu)
	if err != nil {
		return baselines.Result{}, err
	}
	e, err := search.NewProblem("gibo", h.name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	bound, err := baselines.LossBoundOf("gibo: "+h.name, h.lossBound, obj)
	if err != nil {
		return baselines.Result{}, err
	}
	d, n, lo, hi := obj.Dim(), e.Users, e.Lo, e.Hi
	if err := tasks.CheckTheta("gibo: "+h.name+": theta0", theta0, lo, hi); err != nil {
		return baselines.Result{}, err
	}
	reserved := 2 // the release's two evaluations
	if h.chooseStart {
		reserved = d + 2
	}
	if h.lossBound != 0 {
		obj = algo.WithLossBound(obj, h.lossBound)
	}
	full, err := s.WithDefaults(obj)
	if err != nil {
		return baselines.Result{}, fmt.Errorf("gibo: %s: %w", h.name, err)
	}
	iters, batch := full.Iters, full.Batch
	if s.BiasTol == 0 {
		iters = min(iters, (budget-reserved)/batch)
	} else {
		batch = 1 // an adaptive batch: the budget caps the evaluations
	}
	if iters < 1 || budget-reserved < batch {
		return baselines.Result{}, fmt.Errorf("gibo: %s: budget %d leaves %d evaluations for DP-GIBO after the %d of its private choices, below one batch of %d", h.name, budget, max(budget-reserved, 0), reserved, batch)
	}
	s.Iters, s.MaxEvals, s.Mu = iters, budget-reserved, split.gibo

	start := append([]float64(nil), theta0...)
	var startScore []float64 // the start's per-user scores' mean is recomputed from these
	if h.chooseStart {
		cands := [][]float64{start}
		for range d {
			cands = append(cands, search.UniformInBox(rng, lo, hi))
		}
		scores := make([]float64, len(cands))
		kept := make([][]float64, len(cands))
		for j, c := range cands {
			losses, err := e.Evaluate(ctx, c)
			if err != nil {
				return baselines.Result{}, err
			}
			scores[j] = baselines.ClippedMean(losses, bound)
			kept[j] = append([]float64(nil), losses...)
		}
		j := selection.NoisyMin(scores, selection.SelectionNoiseStd(bound, n, len(cands), split.start), rng)
		start, startScore = cands[j], kept[j]
		if cb != nil {
			if err := cb(algo.Iteration{Iter: 0, Evals: e.Evals, Batch: len(cands), Trace: math.NaN(), Theta: append([]float64(nil), start...)}); err != nil {
				return baselines.Result{}, fmt.Errorf("gibo: %s: callback: %w", h.name, err)
			}
		}
	}

	offset := e.Evals
	inner := cb
	if cb != nil && offset > 0 {
		inner = func(it algo.Iteration) error {
			it.Evals += offset
			return cb(it)
		}
	}
	gibo, err := algo.Minimize(ctx, obj, start, s, rng, inner)
	if err != nil {
		return baselines.Result{}, fmt.Errorf("gibo: %s (budget %d): %w", h.name, budget, err)
	}
	e.Evals += gibo.Evals

	// The safe release: the start or the last iterate.
	if startScore == nil {
		losses, err := e.Evaluate(ctx, start)
		if err != nil {
			return baselines.Result{}, err
		}
		startScore = append([]float64(nil), losses...)
	}
	last, err := e.Evaluate(ctx, gibo.Theta)
	if err != nil {
		return baselines.Result{}, err
	}
	scores := []float64{baselines.ClippedMean(startScore, bound), baselines.ClippedMean(last, bound)}
	released := gibo.Theta
	if selection.NoisyMin(scores, selection.SelectionNoiseStd(bound, n, 2, split.release), rng) == 0 {
		released = start
	}
	released = append([]float64(nil), released...)
	if cb != nil {
		if err := cb(algo.Iteration{Iter: gibo.Iters + 1, Evals: e.Evals, Batch: 2, Trace: math.NaN(), Theta: append([]float64(nil), released...)}); err != nil {
			return baselines.Result{}, fmt.Errorf("gibo: %s: callback: %w", h.name, err)
		}
	}

	ledger := gibo.Ledger
	if ledger.Private {
		var added []accounting.LedgerPart
		if h.chooseStart {
			added = append(added, accounting.LedgerPart{Name: "start choice", Accounting: accounting.GDP, Mu: split.start, Releases: 1})
		}
		added = append(added, accounting.LedgerPart{Name: "safe release", Accounting: accounting.GDP, Mu: split.release, Releases: 1})
		total := 0.0
		if gibo.Status == algo.Completed {
			total = mu // every part spent as split
		}
		ledger = ledger.Append(total, added...)
	}
	return baselines.Result{Theta: released, Evals: e.Evals, Iters: gibo.Iters, Ledger: ledger, GIBO: &gibo, Warnings: append([]string(nil), gibo.Warnings...)}, nil
}
