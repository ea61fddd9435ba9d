package score

import (
	"cmp"
	"context"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/internal/fastexp"
)

// TPE is the Tree-structured Parzen Estimator of Bergstra, Bardenet, Bengio and Kégl
// ("Algorithms for hyper-parameter optimization", NeurIPS 2011), independent per coordinate,
// with the default settings of Optuna's TPE sampler (versions 1 and 2):
//
//   - the first 10 trials are uniform on the box (tpeStartup);
//   - then the trials so far are split by loss: the best min(ceil(n/10), 25) form the
//     "below" set, the others the "above" set (tpeBelowCount);
//   - per coordinate, each set gives a Parzen estimator (tpeParzen): one Gaussian per
//     observation, at the observation, plus a prior component at the box's centre with
//     weight 1 and width the box's; a component's width is the larger distance to its
//     neighbours in sorted order (the box's ends for the outermost, whose outer side is not
//     counted), clipped to [width/min(100, 1 + components), width]; observations are weighted
//     by age as Optuna's default does (the newest 25 weight 1, older ones a linear ramp
//     from 1/n up); the mixture is renormalised to the box;
//   - 24 candidates are drawn from the below mixture (truncated to the box), and the one
//     with the largest log l(x) - log g(x) (below density over above density) is the trial's
//     coordinate (tpeCandidates).
//
// It is the project's own implementation, written from the paper and from the settings
// Optuna documents; goptuna's sampler (kept as "goptuna-tpe", package goptuna's TPE) is not TPE as
// defined: its mixture log-density sums the logs of the components' terms where the log of
// their sum is meant, so its "l/g" compares products of the components' densities. Cost: a
// candidate's density under a mixture reads only the components within 12 widths of it
// (mixture components are sorted), a term below exp(-72) of its peak being dropped; the
// sorted observations of each coordinate are kept between trials.
//
// Randomness comes from the run's rng only. It is NOT differentially private; its ledger
// is accounting.NonPrivateLedger(). It reports after every evaluation (Iter = Evals, Batch = 1).
type TPE struct {
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var tpeInfo = baselines.Info{Name: "tpe", Legend: "TPE", Colour: color.RGBA{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff}}

// Info implements baselines.Method.
func (TPE) Info() baselines.Info { return tpeInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (TPE) Sweeps(param string) bool { return param == "noise" }

// DesignSeconds implements baselines.CostHinter: its Parzen mixtures at 24 candidates per
// coordinate per trial, one component per trial so far, cost about 9e-8 d budget^2
// seconds.
func (TPE) DesignSeconds(d, budget int) float64 {
	return 9e-8 * float64(d) * float64(budget) * float64(budget)
}

// TPE's settings (Optuna's defaults).
const (
	tpeStartup      = 10 // uniform trials before the first Parzen estimate
	tpeCandidates   = 24 // expected-improvement candidates drawn per coordinate
	tpeBelowMax     = 25 // largest below set, and the number of newest trials of weight 1
	tpePriorWeight  = 1.0
	tpeCutoffWidths = 12.0 // components farther than this many widths are not read
)

// tpeBelowCount is the size of the below set among n trials: min(ceil(n/10), 25).
func tpeBelowCount(n int) int { return min((n+9)/10, tpeBelowMax) }

// tpeAgeWeight is the weight of the observation of age rank r (0 = oldest) among n:
// 1 for the newest 25, and for n > 25 a linear ramp from 1/n (oldest) to 1 over the
// n - 25 older ones.
func tpeAgeWeight(r, n int) float64 {
	ramp := n - tpeBelowMax
	if r >= ramp {
		return 1
	}
	if ramp == 1 {
		return 1 / float64(n)
	}
	lo := 1 / float64(n)
	return lo + (1-lo)*float64(r)/float64(ramp-1)
}

// tpeObs is one observed coordinate value and the trial it came from.
type tpeObs struct {
	v     float64
	trial int
}

// tpeMixture is a Parzen estimator on [lo, hi]: components sorted by centre, each with its
// centre, inverse width and weight/width; logNorm = log of the mixture's mass on the box
// plus log sqrt(2 pi).
type tpeMixture struct {
	mu, invWidth, weightOverWidth []float64
	weight, width                 []float64
	prior                         int     // index of the prior component
	maxDataWidth                  float64 // widest non-prior component
	logNorm                       float64
}

// tpeParzen builds the Parzen estimator of obs (sorted by value) with age weights ageW (by
// obs index) into mx, reusing its buffers.
func tpeParzen(mx *tpeMixture, obs []tpeObs, ageW []float64, lo, hi float64) {
	n := len(obs) + 1
	mx.mu, mx.weight, mx.width = mx.mu[:0], mx.weight[:0], mx.width[:0]
	centre := 0.5 * (lo + hi)
	prior := sort.Search(len(obs), func(i int) bool { return obs[i].v >= centre })
	for i, o := range obs {
		if i == prior {
			mx.mu, mx.weight = append(mx.mu, centre), append(mx.weight, tpePriorWeight)
		}
		mx.mu, mx.weight = append(mx.mu, o.v), append(mx.weight, ageW[i])
	}
	if prior == len(obs) {
		mx.mu, mx.weight = append(mx.mu, centre), append(mx.weight, tpePriorWeight)
	}
	mx.prior = prior
	span := hi - lo
	minWidth := span / math.Min(100, float64(1+n))
	totalWeight := 0.0
	for _, w := range mx.weight {
		totalWeight += w
	}
	mx.maxDataWidth = 0
	for i, m := range mx.mu {
		left, right := lo, hi
		if i > 0 {
			left = mx.mu[i-1]
		}
		if i < n-1 {
			right = mx.mu[i+1]
		}
		w := math.Max(m-left, right-m)
		switch {
		case n == 1:
		case i == 0:
			w = right - m
		case i == n-1:
			w = m - left
		}
		if i == prior {
			w = span
		}
		w = math.Min(math.Max(w, minWidth), span)
		mx.width = append(mx.width, w)
		if i != prior {
			mx.maxDataWidth = math.Max(mx.maxDataWidth, w)
		}
	}
	mx.invWidth = slices.Grow(mx.invWidth[:0], n)[:n]
	mx.weightOverWidth = slices.Grow(mx.weightOverWidth[:0], n)[:n]
	mass := 0.0
	for i := range mx.mu {
		mx.weight[i] /= totalWeight
		mx.invWidth[i] = 1 / mx.width[i]
		mx.weightOverWidth[i] = mx.weight[i] / mx.width[i]
		mass += mx.weight[i] * normalMass(lo, hi, mx.mu[i], mx.width[i])
	}
	mx.logNorm = math.Log(mass) + 0.5*math.Log(2*math.Pi)
}

// normalMass is the probability that N(mu, width^2) falls in [lo, hi], for mu in [lo, hi]. A
// side farther than 9 widths contributes exactly (in floating point) 1 or 0.
func normalMass(lo, hi, mu, width float64) float64 {
	upper, lower := 1.0, 0.0
	if b := (hi - mu) / width; b < 9 {
		upper = 0.5 * math.Erfc(-b/math.Sqrt2)
	}
	if a := (lo - mu) / width; a > -9 {
		lower = 0.5 * math.Erfc(-a/math.Sqrt2)
	}
	return upper - lower
}

// logDensity is the mixture's log-density at x in [lo, hi]. Components more than
// tpeCutoffWidths widths from x (their terms below exp(-72) of their peaks) are not read;
// the prior component, whose width is the box's, always is, so the sum is never zero.
func (mx *tpeMixture) logDensity(x float64) float64 {
	reach := tpeCutoffWidths * mx.maxDataWidth
	from := sort.SearchFloat64s(mx.mu, x-reach)
	to := sort.Search(len(mx.mu), func(i int) bool { return mx.mu[i] > x+reach })
	const cutoff = tpeCutoffWidths * tpeCutoffWidths
	// Four partial sums, so that the additions do not wait on each other.
	var sums [4]float64
	for i := from; i < to; i++ {
		z := (x - mx.mu[i]) * mx.invWidth[i]
		if z2 := z * z; z2 < cutoff {
			sums[i&3] += mx.weightOverWidth[i] * fastexp.ExpNonPositive(-0.5*z2)
		}
	}
	sum := (sums[0] + sums[1]) + (sums[2] + sums[3])
	if mx.prior < from || mx.prior >= to {
		z := (x - mx.mu[mx.prior]) * mx.invWidth[mx.prior]
		sum += mx.weightOverWidth[mx.prior] * fastexp.ExpNonPositive(-0.5*z*z)
	}
	return math.Log(sum) - mx.logNorm
}

// sample draws from the mixture truncated to [lo, hi]: a component by weight, then its
// Gaussian, redrawn until it falls in the box.
func (mx *tpeMixture) sample(rng *rand.Rand, lo, hi float64) float64 {
	for {
		u := rng.Float64()
		k := len(mx.weight) - 1
		for i, w := range mx.weight {
			if u < w {
				k = i
				break
			}
			u -= w
		}
		x := mx.mu[k] + mx.width[k]*rng.NormFloat64()
		if lo <= x && x <= hi {
			return x
		}
	}
}

// tpeState is what a TPE run keeps between trials.
type tpeState struct {
	lo, hi []float64
	losses []float64
	sorted [][]tpeObs // per coordinate, every trial's value sorted by value (then trial)
	// buffers reused per trial
	order             []int
	below             []bool
	ageW              []float64 // age weight of each trial within its set
	belowObs, abvObs  []tpeObs
	belowW, abvW      []float64
	belowMix, aboveMx tpeMixture
}

// add records a finished trial.
func (s *tpeState) add(theta []float64, loss float64) {
	t := len(s.losses)
	s.losses = append(s.losses, loss)
	for j, v := range theta {
		o := tpeObs{v, t}
		i, _ := slices.BinarySearchFunc(s.sorted[j], o, func(a, b tpeObs) int {
			return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.trial, b.trial))
		})
		s.sorted[j] = slices.Insert(s.sorted[j], i, o)
	}
}

// split marks the below set among the trials so far (ties in loss by trial order) and
// gives every trial its age weight within its set.
func (s *tpeState) split() {
	n := len(s.losses)
	s.order = s.order[:0]
	for i := range n {
		s.order = append(s.order, i)
	}
	slices.SortFunc(s.order, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.losses[a], s.losses[b]), cmp.Compare(a, b))
	})
	nBelow := tpeBelowCount(n)
	s.below = slices.Grow(s.below[:0], n)[:n]
	clear(s.below)
	for _, i := range s.order[:nBelow] {
		s.below[i] = true
	}
	s.ageW = slices.Grow(s.ageW[:0], n)[:n]
	rb, ra := 0, 0
	for i := range n {
		if s.below[i] {
			s.ageW[i] = tpeAgeWeight(rb, nBelow)
			rb++
		} else {
			s.ageW[i] = tpeAgeWeight(ra, n-nBelow)
			ra++
		}
	}
}

// suggest returns the next trial's point: tpeCandidates draws from the below estimator per
// coordinate, the one with the largest log l - log g kept.
func (s *tpeState) suggest(rng *rand.Rand) []float64 {
	s.split()
	theta := make([]float64, len(s.lo))
	for j := range theta {
		s.belowObs, s.abvObs = s.belowObs[:0], s.abvObs[:0]
		s.belowW, s.abvW = s.belowW[:0], s.abvW[:0]
		for _, o := range s.sorted[j] {
			if s.below[o.trial] {
				s.belowObs, s.belowW = append(s.belowObs, o), append(s.belowW, s.ageW[o.trial])
			} else {
				s.abvObs, s.abvW = append(s.abvObs, o), append(s.abvW, s.ageW[o.trial])
			}
		}
		lo, hi := s.lo[j], s.hi[j]
		tpeParzen(&s.belowMix, s.belowObs, s.belowW, lo, hi)
		tpeParzen(&s.aboveMx, s.abvObs, s.abvW, lo, hi)
		best, bestScore := 0.0, math.Inf(-1)
		for range tpeCandidates {
			x := s.belowMix.sample(rng, lo, hi)
			if score := s.belowMix.logDensity(x) - s.aboveMx.logDensity(x); score > bestScore {
				best, bestScore = x, score
			}
		}
		theta[j] = best
	}
	return theta
}

// Run implements baselines.Method.
func (m TPE) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	p, err := search.NewSearch("score", "tpe", obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	s := &tpeState{lo: p.Lo, hi: p.Hi, sorted: make([][]tpeObs, p.Dim())}
	for p.Remaining() > 0 {
		var theta []float64
		if len(s.losses) < tpeStartup {
			theta = p.Uniform(rng)
		} else {
			theta = s.suggest(rng)
		}
		// observe rejects NaN/Inf losses before they reach the estimator.
		score, err := p.Observe(ctx, theta, baselines.Mean, m.OnScore, cb)
		if err != nil {
			return baselines.Result{}, err
		}
		s.add(theta, score)
	}
	return baselines.Result{Theta: p.Released(), Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}
