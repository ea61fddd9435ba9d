package selection

import (
	"context"
	"image/color"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// RNM is report-noisy-min private selection (registry name "dp-rnm"): it draws K = budget
// candidates independently and uniformly from the box (data-independent), scores each by
// its clipped mean loss ClippedMean(losses, Lmax) (sensitivity Delta = Lmax/n under
// replacement of one validation user), adds Laplace noise of scale RNMNoiseScale =
// 2 Delta/eps to every score and releases only the candidate of smallest noisy score. The
// scores are not monotone in the data (one user can raise one candidate's score and lower
// another's), so the noise is 2 Delta/eps rather than Delta/eps: with the other scores'
// noise fixed, the noise a candidate needs to win moves by at most 2 Delta between
// neighbouring data sets, and the release is eps-DP (Dwork and Roth 2014, section 3.3,
// report noisy max, with the factor 2 for scores that are not monotone).
//
// eps is PureEpsilon(Mu, Currency). Nothing is released before the end: the callback sees
// one report, after the K-th evaluation. Its ledger is accounting.NewPureLedger("selection",
// eps). With Mu = +Inf no noise is drawn and it releases the candidate of smallest clipped
// mean loss (random search on the clipped losses, reported once).
type RNM struct {
	// Mu is DP-GIBO's mu that the selection's epsilon is read from in Currency.
	Mu       float64
	Currency Currency
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
}

// RNMNoiseScale is the scale b = 2 (lossBound/users)/eps of the Laplace noise RNM adds to
// each candidate's clipped mean loss; 0 for eps = +Inf.
func RNMNoiseScale(lossBound float64, users int, eps float64) float64 {
	if math.IsInf(eps, 1) {
		return 0
	}
	return 2 * lossBound / float64(users) / eps
}

// Info implements baselines.Method.
func (RNM) Info() baselines.Info { return rnmInfo }

var rnmInfo = baselines.Info{Name: "dp-rnm", Legend: "DP-RNM", Colour: color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff}, Private: true}

// Run implements baselines.Method: report-noisy-min among budget uniform candidates,
// reported once, after the last evaluation (one iteration).
func (m RNM) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := baselines.CheckMu("dp-rnm", m.Mu); err != nil {
		return baselines.Result{}, err
	}
	eps, err := PureEpsilon(m.Mu, m.Currency)
	if err != nil {
		return baselines.Result{}, err
	}
	res, err := ReportNoisyMin(ctx, obj, budget, eps, m.LossBound, rng, cb)
	res.Iters = 1
	return res, err
}

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (RNM) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// ReadsCurrency says that the method's epsilon is read from mu in its Currency.
func (RNM) ReadsCurrency() bool { return true }

// ReportNoisyMin is report-noisy-min among budget uniform candidates at pure eps-DP
// (eps = +Inf: no noise), scores clipped to lossBound (0: the objective's), reported once,
// after the last evaluation. Its Result has no iterations.
func ReportNoisyMin(ctx context.Context, obj algo.Objective, budget int, eps, lossBound float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	noise := func(bound float64, users int) func(*rand.Rand) float64 {
		scale := RNMNoiseScale(bound, users, eps)
		return func(rng *rand.Rand) float64 { return laplace(scale, rng) }
	}
	theta, evals, err := uniformNoisyMin(ctx, obj, budget, "dp-rnm", lossBound, rng, cb, noise)
	if err != nil {
		return baselines.Result{}, err
	}
	ledger := accounting.NonPrivateLedger()
	if !math.IsInf(eps, 1) {
		if ledger, err = accounting.NewPureLedger("selection", eps); err != nil {
			return baselines.Result{}, err
		}
	}
	return baselines.Result{Theta: theta, Evals: evals, Ledger: ledger}, nil
}

// GaussianScores is the Gaussian release of every score ("dp-random"): budget candidates
// drawn uniformly from the box, each scored by its clipped mean loss plus Gaussian noise of
// standard deviation SelectionNoiseStd(Lmax, n, budget, mu), so that the budget releases
// compose to mu-GDP; the candidate of smallest noisy score is released (post-processing).
// Its ledger is accounting.NewLedger(mu, budget); mu = +Inf draws no noise.
//
// It is dp-random's mechanism reported once, after the last evaluation, as the library's
// private tuner runs it (package score's DPRandom reports after every evaluation).
func GaussianScores(ctx context.Context, obj algo.Objective, budget int, mu, lossBound float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	noise := func(bound float64, users int) func(*rand.Rand) float64 {
		std := SelectionNoiseStd(bound, users, budget, mu)
		return func(rng *rand.Rand) float64 {
			if std > 0 {
				return std * rng.NormFloat64()
			}
			return 0
		}
	}
	theta, evals, err := uniformNoisyMin(ctx, obj, budget, "dp-random", lossBound, rng, cb, noise)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: evals, Ledger: accounting.NewLedger(mu, budget)}, nil
}

// uniformNoisyMin is the loop of the selections that score every candidate: budget candidates
// drawn uniformly from the box, each scored by its mean loss
// clipped to lossBound (0: the objective's) plus a draw of the noise that noise returns for
// the bound and the number of users; it reports and returns the candidate of smallest noisy
// score and the evaluations used. name is the method's, for its errors and reports.
func uniformNoisyMin(ctx context.Context, obj algo.Objective, budget int, name string, lossBound float64, rng *rand.Rand, cb algo.Callback,
	noise func(bound float64, users int) func(*rand.Rand) float64) ([]float64, int, error) {
	p, err := search.NewSearch("selection", name, obj, budget)
	if err != nil {
		return nil, 0, err
	}
	bound, err := baselines.LossBoundOf("selection: "+name, lossBound, obj)
	if err != nil {
		return nil, 0, err
	}
	p.LossBound = bound
	draw := noise(bound, p.Users)
	var best []float64
	bestScore := math.Inf(1)
	for p.Remaining() > 0 {
		theta := p.Uniform(rng)
		losses, err := p.Evaluate(ctx, theta)
		if err != nil {
			return nil, 0, err
		}
		score := baselines.ClippedMean(losses, bound) + draw(rng)
		if best == nil || score < bestScore {
			best, bestScore = theta, score
		}
	}
	p.Best = best
	if err := p.Report(cb, best); err != nil {
		return nil, 0, err
	}
	return p.Released(), p.Evals, nil
}
