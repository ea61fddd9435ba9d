package baselines

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/internal/search"
	"dpgibo/private"
)

// The private baselines release scores, one per evaluation, through the Gaussian
// mechanism. Their common pieces live here so that an audit can call each one on its own:
//
//   - ClippedMean is the pre-noise score: the mean of the per-user losses clipped to
//     [0, Lmax]. Replacing one user moves it by at most Lmax/n (its sensitivity).
//   - DPRandomNoiseStd and DPUCBNoiseStd are the noise standard deviations.
//   - GaussianRelease adds the noise.
//
// A Gaussian mechanism with sensitivity Lmax/n and noise standard deviation
// (Lmax/n)*sqrt(K)/mu is (mu/sqrt(K))-GDP (the paper's Gaussian Mechanism theorem, from
// Dong, Roth and Su 2022); K such releases, chosen adaptively or not, compose to mu-GDP (the
// paper's GDP Composition theorem, algo.ComposeGDP). Everything
// computed from the released scores (which point to evaluate next, which point to
// release) is post-processing and costs nothing further.

// ClippedMean returns the mean of the per-user losses clipped to [0, lossBound]
// (private.ClippedMean): under replacement of one user it changes by at most lossBound/n.
func ClippedMean(losses []float64, lossBound float64) float64 {
	return private.ClippedMean(losses, lossBound)
}

// DPRandomNoiseStd is the standard deviation of the Gaussian noise dp-random adds to the
// clipped mean loss of each of its K = releases candidates: (lossBound/users)*sqrt(K)/mu,
// so that each release is (mu/sqrt(K))-GDP and all K together mu-GDP. It is 0 for
// mu = +Inf.
func DPRandomNoiseStd(lossBound float64, users, releases int, mu float64) float64 {
	return gaussianNoiseStd(lossBound, users, releases, mu)
}

// DPUCBNoiseStd is the standard deviation of the Gaussian noise dp-ucb adds to the clipped
// mean loss of each of its N = releases observations (one per evaluation; N is the
// budget): (lossBound/users)*sqrt(N)/mu. Each observation is (mu/sqrt(N))-GDP and the
// adaptive composition of all N mu-GDP. It is 0 for mu = +Inf.
func DPUCBNoiseStd(lossBound float64, users, releases int, mu float64) float64 {
	return gaussianNoiseStd(lossBound, users, releases, mu)
}

// gaussianNoiseStd is sensitivity/(per-release mu) with sensitivity lossBound/users and
// per-release mu = mu/sqrt(releases).
func gaussianNoiseStd(lossBound float64, users, releases int, mu float64) float64 {
	if math.IsInf(mu, 1) {
		return 0
	}
	return lossBound / float64(users) * math.Sqrt(float64(releases)) / mu
}

// GaussianRelease returns score + noiseStd*Z with Z ~ N(0, 1) drawn from rng. With
// noiseStd = 0 it returns score unchanged and draws nothing, so that a run at mu = +Inf
// consumes the same random numbers as its non-private counterpart.
func GaussianRelease(score, noiseStd float64, rng *rand.Rand) float64 {
	if noiseStd == 0 {
		return score
	}
	return score + noiseStd*rng.NormFloat64()
}

// resolveLossBound returns opt's LossBound, or obj's when opt's is zero
// (private.LossBoundOf); it must be positive and finite.
func resolveLossBound(method string, optBound float64, obj algo.Objective) (float64, error) {
	return private.LossBoundOf("baselines: "+method, optBound, obj)
}

// privateProblem is the start of every private score-based method's run: it checks mu,
// builds the search problem and resolves the loss bound Lmax.
func privateProblem(method string, opt Options, obj algo.Objective, budget int) (*search.Problem, float64, error) {
	if err := checkMu(method, opt.Mu); err != nil {
		return nil, 0, err
	}
	p, err := search.NewSearch("baselines", method, obj, budget)
	if err != nil {
		return nil, 0, err
	}
	bound, err := resolveLossBound(method, opt.LossBound, obj)
	if err != nil {
		return nil, 0, err
	}
	p.LossBound = bound
	return p, bound, nil
}

// checkMu returns an error unless mu is positive (+Inf allowed).
func checkMu(method string, mu float64) error {
	if math.IsNaN(mu) || mu <= 0 {
		return fmt.Errorf("baselines: %s: Options.Mu must be positive (math.Inf(1) for no privacy noise), got %v", method, mu)
	}
	return nil
}
