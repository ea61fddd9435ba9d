package private

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/internal/search"
	"dpgibo/tasks"
)

// Declared shares of mu^2 (docs/library.md, "The library's private tuner"), the values of
// the zero fields of SafeGIBO and HybridGIBO.
const (
	// DefaultReleaseShare is the share of mu^2 spent on the safe release.
	DefaultReleaseShare = 0.1
	// DefaultStartShare is the share of mu^2 the hybrid spends on choosing its start.
	DefaultStartShare = 0.2
)

// SafeGIBO is DP-GIBO with a safe release (registry name "dpgibo-safe"): DP-GIBO from theta0
// with Mu sqrt(1 - ReleaseShare), then a Gaussian report-noisy-min between theta0 and the
// last iterate with Mu sqrt(ReleaseShare) (SelectionNoiseStd with 2 candidates), so that a
// run whose gradients were mostly noise returns close to its start. The two parts compose
// to Settings.Mu-GDP. The release's two evaluations come out of the budget: DP-GIBO runs
// min(Iters, (budget-2)/b) iterations of its batch b (d+1 by default).
type SafeGIBO struct {
	// Settings are DP-GIBO's; Mu is the total of both parts and must be set (math.Inf(1):
	// no noise anywhere, the release then keeps the better of the two exactly).
	Settings algo.Settings
	// ReleaseShare is the share of Mu^2 spent on the release (0: DefaultReleaseShare). It
	// must lie in (0, 1).
	ReleaseShare float64
	// LossBound is Lmax, a public bound on one user's loss, which every score is clipped
	// to (0: the objective's LossBound(); an objective without one is refused).
	LossBound float64
}

// HybridGIBO is the declared hybrid (registry name "dpgibo-hybrid"): a Gaussian
// report-noisy-min among d+1 candidates drawn without the data (theta0 and d uniform points
// of the box) chooses the start for Mu sqrt(StartShare); DP-GIBO runs from it with
// Mu sqrt(1 - StartShare - ReleaseShare); the safe release chooses between the start and
// the last iterate with Mu sqrt(ReleaseShare). The choice of the start spends d+1
// evaluations and the release one more (the start's losses are kept from the first
// choice); DP-GIBO runs min(Iters, (budget-d-2)/b) iterations.
type HybridGIBO struct {
	// Settings, ReleaseShare and LossBound are SafeGIBO's.
	Settings     algo.Settings
	ReleaseShare float64
	LossBound    float64
	// StartShare is the share of Mu^2 spent on choosing the start (0: DefaultStartShare).
	// StartShare + ReleaseShare must lie in (0, 1).
	StartShare float64
}

// Run runs SafeGIBO on obj from theta0 (chosen without the validation data) with at most
// budget evaluations; cb sees DP-GIBO's iterations and then the release.
func (m SafeGIBO) Run(ctx context.Context, obj algo.Objective, theta0 []float64, budget int, rng *rand.Rand, cb algo.Callback) (Result, error) {
	h := hybrid{name: "dpgibo-safe", settings: m.Settings, releaseShare: m.ReleaseShare, lossBound: m.LossBound}
	return h.run(ctx, obj, theta0, budget, rng, cb)
}

// Run runs HybridGIBO on obj with at most budget evaluations: theta0 (chosen without the
// validation data) is the first of the start's candidates; cb sees the chosen start,
// DP-GIBO's iterations and then the release.
func (m HybridGIBO) Run(ctx context.Context, obj algo.Objective, theta0 []float64, budget int, rng *rand.Rand, cb algo.Callback) (Result, error) {
	h := hybrid{name: "dpgibo-hybrid", settings: m.Settings, releaseShare: m.ReleaseShare, lossBound: m.LossBound,
		startShare: m.StartShare, chooseStart: true}
	if h.startShare == 0 {
		h.startShare = DefaultStartShare
	}
	return h.run(ctx, obj, theta0, budget, rng, cb)
}

// hybrid is the run of SafeGIBO (chooseStart false) and HybridGIBO.
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
		return parts{}, fmt.Errorf("private: %s: ReleaseShare must lie in (0, 1), got %v", h.name, h.releaseShare)
	}
	if h.chooseStart && !(h.startShare > 0 && h.startShare+h.releaseShare < 1) {
		return parts{}, fmt.Errorf("private: %s: StartShare must be positive with StartShare + ReleaseShare below 1, got %v + %v", h.name, h.startShare, h.releaseShare)
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

func (h hybrid) run(ctx context.Context, obj algo.Objective, theta0 []float64, budget int, rng *rand.Rand, cb algo.Callback) (Result, error) {
	rng = orSecret(rng)
	obj = withProgress(ctx, obj, budget)
	s := h.settings
	if math.IsNaN(s.Mu) || s.Mu <= 0 {
		return Result{}, fmt.Errorf("private: %s: Settings.Mu must be positive (math.Inf(1) for no privacy noise), got %v", h.name, s.Mu)
	}
	mu := s.Mu
	split, err := h.split(mu)
	if err != nil {
		return Result{}, err
	}
	e, err := search.NewProblem("private", h.name, obj, budget)
	if err != nil {
		return Result{}, err
	}
	bound, err := LossBoundOf("private: "+h.name, h.lossBound, obj)
	if err != nil {
		return Result{}, err
	}
	d, n, lo, hi := obj.Dim(), e.Users, e.Lo, e.Hi
	if err := tasks.CheckTheta("private: "+h.name+": theta0", theta0, lo, hi); err != nil {
		return Result{}, err
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
		return Result{}, fmt.Errorf("private: %s: %w", h.name, err)
	}
	iters, batch := full.Iters, full.Batch
	if s.BiasTol == 0 {
		iters = min(iters, (budget-reserved)/batch)
	} else {
		batch = 1 // an adaptive batch: the budget caps the evaluations
	}
	if iters < 1 || budget-reserved < batch {
		return Result{}, fmt.Errorf("private: %s: budget %d leaves %d evaluations for DP-GIBO after the %d of its private choices, below one batch of %d", h.name, budget, max(budget-reserved, 0), reserved, batch)
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
				return Result{}, err
			}
			scores[j] = ClippedMean(losses, bound)
			kept[j] = append([]float64(nil), losses...)
		}
		j := noisyMin(scores, SelectionNoiseStd(bound, n, len(cands), split.start), rng)
		start, startScore = cands[j], kept[j]
		if cb != nil {
			if err := cb(algo.Iteration{Iter: 0, Evals: e.Evals, Batch: len(cands), Trace: math.NaN(), Theta: append([]float64(nil), start...)}); err != nil {
				return Result{}, fmt.Errorf("private: %s: callback: %w", h.name, err)
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
		return Result{}, fmt.Errorf("private: %s (budget %d): %w", h.name, budget, err)
	}
	e.Evals += gibo.Evals

	// The safe release: the start or the last iterate.
	if startScore == nil {
		losses, err := e.Evaluate(ctx, start)
		if err != nil {
			return Result{}, err
		}
		startScore = append([]float64(nil), losses...)
	}
	last, err := e.Evaluate(ctx, gibo.Theta)
	if err != nil {
		return Result{}, err
	}
	scores := []float64{ClippedMean(startScore, bound), ClippedMean(last, bound)}
	released := gibo.Theta
	if noisyMin(scores, SelectionNoiseStd(bound, n, 2, split.release), rng) == 0 {
		released = start
	}
	released = append([]float64(nil), released...)
	if cb != nil {
		if err := cb(algo.Iteration{Iter: gibo.Iters + 1, Evals: e.Evals, Batch: 2, Trace: math.NaN(), Theta: append([]float64(nil), released...)}); err != nil {
			return Result{}, fmt.Errorf("private: %s: callback: %w", h.name, err)
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
	return Result{Theta: released, Evals: e.Evals, Iters: gibo.Iters, Ledger: ledger, GIBO: &gibo, Warnings: append([]string(nil), gibo.Warnings...)}, nil
}
