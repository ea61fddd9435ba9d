package algo

import "math"

// Objective is a black-box validation loss split by validation user, the function
// f(theta) = (1/n) sum_i L(theta, x_i) of equation (1) of the paper. Every task of this
// project and every user pipeline plugged into DP-GIBO implements it.
//
// Losses must be safe to call repeatedly; implementations may reuse internal buffers and
// need not be safe for concurrent use.
//
// An Objective may also implement LossBounder, a method LossBound() float64 returning an
// upper bound on every user's loss known without looking at the data (every task of this
// project does): the default Clip is derived from it (see Settings.WithDefaults), and the
// private score-based baselines clip each user's loss to it.
type Objective interface {
	// Dim is d, the number of hyperparameters.
	Dim() int
	// Bounds returns the box Theta = [lo, hi] (both of length Dim()). Callers must not
	// modify the returned slices.
	Bounds() (lo, hi []float64)
	// Users is n, the number of validation users.
	Users() int
	// Losses writes dst[i] = L(theta, x_i) for every user i; len(dst) == Users().
	Losses(theta, dst []float64) error
}

// Iteration is what an optimiser reports to its Callback after each iteration.
// Theta is a copy owned by the receiver.
type Iteration struct {
	Iter        int       // iteration index t, starting at 1 after the first step
	Evals       int       // evaluations of Objective.Losses charged so far
	Batch       int       // points evaluated in this iteration (b)
	BatchCapped bool      // the adaptive batch hit MaxBatch before reaching BiasTol
	Trace       float64   // acquisition value alpha reached by the design (NaN if none)
	Theta       []float64 // the released iterate theta^(t)
	// Gradient is the privatised gradient g~_t released in this iteration (Algorithm 1,
	// line 8, after the noise; nil for other methods). It is public, like Theta.
	Gradient []float64
	// Clip is the clipping norm B_t used in this iteration (DP-GIBO and GIBO; 0 for other
	// methods). It is public: fixed, or with AdaptiveClip a function of released counts.
	Clip float64
	// NoiseStd is the per-coordinate standard deviation s_t of the privacy noise added in
	// this iteration (0 without noise). It is public, like Clip.
	NoiseStd float64
	// ClipCount is the privatised count of users whose surrogate gradient norm was at most
	// Clip, released by adaptive clipping (NaN for DP-GIBO and GIBO without AdaptiveClip, 0
	// for other methods). It is public.
	ClipCount float64
	// Diagnostics is nil unless Settings.NonPrivateDiagnostics is set. It is computed from
	// the validation data and is not part of the private release.
	Diagnostics *NonPrivateDiagnostics
}

// NonPrivateDiagnostics are per-iteration quantities of DP-GIBO computed from the
// validation data that are not covered by the privacy guarantee: publishing them with the
// released thetas leaks the data (NoiseNorm places the true gradient on a sphere around the
// released one). They exist to explain results in experiments, opted into with
// Settings.NonPrivateDiagnostics, and must never be released.
type NonPrivateDiagnostics struct {
	// ClippedMeanNorm is the Euclidean norm of the clipped mean gradient g_t of
	// Algorithm 1, line 8, before noise.
	ClippedMeanNorm float64
	// NoiseNorm is the Euclidean norm of the privacy noise vector drawn at line 9 (0 for
	// GIBO). Its root mean square over draws is NoiseStd*sqrt(d).
	NoiseNorm float64
	// ClippedFrac is the share of users whose surrogate gradient norm exceeded Clip.
	ClippedFrac float64
}

// SNR is the signal-to-noise ratio of the iteration, ClippedMeanNorm/(noiseStd*sqrt(d)):
// the clipped mean gradient's norm against the root-mean-square norm of the noise (+Inf
// when noiseStd is 0).
func (g NonPrivateDiagnostics) SNR(noiseStd float64, d int) float64 {
	if noiseStd == 0 {
		return math.Inf(1)
	}
	return g.ClippedMeanNorm / (noiseStd * math.Sqrt(float64(d)))
}

// Callback receives one Iteration per iteration; a non-nil error stops the run and is
// returned by the optimiser.
type Callback func(Iteration) error
