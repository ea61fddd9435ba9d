package algo

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
)

// ClipCalibration sets the clipping norm B privately from the users' surrogate gradient
// norms at the first iteration, before the first gradient is released (Algorithm 1, line 8,
// with B chosen from the data at a declared privacy cost instead of by hand). It is the
// default rule of private runs that leave Settings.Clipping nil (see Settings.WithDefaults).
//
// The rule. B is the Quantile (default 0.75) quantile of the users' gradient norms at the
// first iteration: one user in four is clipped there. The privacy noise scales with B,
// while with AdaGrad the length of a step does not, so clipping costs only the bias of the
// mean direction; as theta approaches a minimum the gradients shrink and later iterations
// clip fewer users. The default was chosen by the library study's leave-one-problem-out
// selection on nine problems (docs/library.md): the lower quartile of revision 2 put B
// far below the few users who carry the loss of a classification problem, and the
// gradient became an equal vote of the users it fits already.
//
// The mechanism. The quantile is found by a binary search over a geometric grid of 2^Queries
// candidate norms, from Anchor*2^TopOctaves down over Octaves factors of two: each step
// releases the count of users whose gradient norm exceeds the middle candidate plus
// Gaussian noise of standard deviation sqrt(Queries)/mu_cal (a count changes by at most 1
// when one user is replaced, so each release is (mu_cal/sqrt(Queries))-GDP and the Queries
// adaptive releases compose to mu_cal-GDP), and the search moves by the noisy count alone.
// B is the smallest candidate whose noisy count stayed at or below n (1 - Quantile). The
// part of Mu spent is mu_cal = Mu sqrt(Share); the gradients get the rest (see Settings.Mu),
// and the ledger composes them: Mu^2 = mu_g^2 + mu_c^2 + mu_cal^2.
//
// B stays fixed afterwards, unless AdaptiveClip is also set, which then starts from it.
type ClipCalibration struct {
	// Share is the share of Mu^2 spent on the calibration, mu_cal^2 = Share*Mu^2, in (0, 1)
	// (default 0.05); with AdaptiveClip, Share + CountShare must stay below 1.
	Share float64
	// Queries is the number of noisy counts of the binary search, 1 to 16 (default 6: a
	// grid of 64 candidates).
	Queries int
	// Octaves is the span of the grid in factors of two (default 24) and TopOctaves how far
	// its top lies above Anchor (default 8): the candidates run from Anchor*2^TopOctaves down
	// to Anchor*2^(TopOctaves-Octaves), geometrically.
	Octaves, TopOctaves float64
	// Anchor only anchors the grid (default S/(4 l), the default fixed B); it must not
	// depend on the data.
	Anchor float64
	// Quantile is the target share of users whose gradient norm is at most B, in (0, 1)
	// (default 0.75).
	Quantile float64
}

// Defaults of ClipCalibration.
const (
	defaultCalibrationShare    = 0.05
	defaultCalibrationQueries  = 6
	defaultCalibrationOctaves  = 24
	defaultCalibrationTop      = 8
	defaultCalibrationQuantile = 0.75
)

// resolved fills zero fields with the defaults and validates.
func (c ClipCalibration) resolved() (ClipCalibration, error) {
	c.Share = cmp.Or(c.Share, defaultCalibrationShare)
	c.Queries = cmp.Or(c.Queries, defaultCalibrationQueries)
	c.Octaves = cmp.Or(c.Octaves, defaultCalibrationOctaves)
	c.TopOctaves = cmp.Or(c.TopOctaves, defaultCalibrationTop)
	c.Quantile = cmp.Or(c.Quantile, defaultCalibrationQuantile)
	switch {
	case !(c.Share > 0 && c.Share < 1):
		return c, fmt.Errorf("ClipCalibration.Share must lie in (0, 1), got %v", c.Share)
	case c.Queries < 1 || c.Queries > 16:
		return c, fmt.Errorf("ClipCalibration.Queries must lie in [1, 16], got %d", c.Queries)
	case !(c.Quantile > 0 && c.Quantile < 1):
		return c, fmt.Errorf("ClipCalibration.Quantile must lie in (0, 1), got %v", c.Quantile)
	case !positiveFinite(c.Octaves) || math.IsInf(c.TopOctaves, 0) || math.IsNaN(c.TopOctaves):
		return c, fmt.Errorf("ClipCalibration needs a positive finite Octaves and a finite TopOctaves, got %v and %v", c.Octaves, c.TopOctaves)
	}
	return c, nil
}

// grid returns the 2^Queries candidate norms of the search, largest first:
// clip 2^(TopOctaves - Octaves k/(K-1)), k = 0..K-1.
func (c ClipCalibration) grid(clip float64) []float64 {
	k := 1 << c.Queries
	out := make([]float64, k)
	for i := range out {
		step := 0.0
		if k > 1 {
			step = c.Octaves * float64(i) / float64(k-1)
		}
		out[i] = clip * math.Exp2(c.TopOctaves-step)
	}
	return out
}

// CalibrationNoiseStd is the standard deviation sqrt(queries)/muCal of the Gaussian noise
// added to each count of the calibration's binary search: a count has sensitivity 1 under
// replacement of one user, so each of the queries counts is (muCal/sqrt(queries))-GDP and
// together muCal-GDP. +Inf gives 0.
func CalibrationNoiseStd(queries int, muCal float64) float64 {
	if math.IsInf(muCal, 1) {
		return 0
	}
	return math.Sqrt(float64(queries)) / muCal
}

// calibratedClip is the binary search of ClipCalibration over grid (largest first, 2^Q
// candidates): the smallest candidate whose noisy count of norms above it is at most target
// (the largest candidate when none is), found with exactly Q noisy counts, each with noise
// of standard deviation noiseStd drawn from rng. It reads norms only through those counts,
// which it returns in query order (they are part of the release, and their number is what
// the noise is calibrated for).
func calibratedClip(norms, grid []float64, target, noiseStd float64, rng *rand.Rand) (clip float64, counts []float64) {
	lo, hi := 0, len(grid)-1 // the answer's index lies in [lo, hi]; each count halves the range
	for lo < hi {
		mid := (lo + hi + 1) / 2
		above := 0
		for _, v := range norms {
			if v > grid[mid] {
				above++
			}
		}
		count := float64(above)
		if noiseStd > 0 {
			count += noiseStd * rng.NormFloat64()
		}
		counts = append(counts, count)
		if count <= target {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return grid[lo], counts
}

// calibrateClip runs ClipCalibration on the users' gradients of the first iteration and
// sets the clipping norm and the gradient noise to it.
func (r *run) calibrateClip() {
	c := r.set.calibration
	_, _, muCal := r.set.muParts()
	norms := make([]float64, r.n)
	for i := range norms {
		norms[i] = norm(r.grads[i*r.d : (i+1)*r.d])
	}
	target := float64(r.n) * (1 - c.Quantile)
	grid := c.grid(r.set.clip)
	r.clip, r.calibrationCounts = calibratedClip(norms, grid, target, CalibrationNoiseStd(c.Queries, muCal), r.rng)
	r.noiseStd = PrivacyNoiseStd(r.clip, r.set.Iters, r.n, r.muGrad)
	r.calibrated = true
	r.calibration = &CalibrationOutcome{Clip: r.clip, Smallest: r.clip == grid[len(grid)-1], Largest: r.clip == grid[0],
		Counts: append([]float64(nil), r.calibrationCounts...)}
	if w := gridEdgeWarning(r.clip, grid); w != "" {
		r.warnings = append(r.warnings, w)
	}
}

// CalibrationOutcome is what ClipCalibration chose, from its released counts only (so it is
// public): B, whether B is the smallest or the largest candidate of its grid (the quantile
// sought may then lie beyond the grid; Result.Warnings says so too), and the noisy counts in
// query order.
type CalibrationOutcome struct {
	Clip              float64
	Smallest, Largest bool
	Counts            []float64
}

// gridEdgeWarning is the warning for a calibrated B at an end of its grid (largest first),
// where the quantile sought may lie beyond the grid; "" otherwise. B is a function of the
// released counts, so the warning is public.
func gridEdgeWarning(clip float64, grid []float64) string {
	switch clip {
	case grid[len(grid)-1]:
		return fmt.Sprintf("algo: ClipCalibration chose B = %.3g, the smallest candidate of its grid: the users' gradient-norm quantile may lie lower; a smaller ClipCalibration.Anchor or a larger ClipCalibration.Octaves lets the search go lower", clip)
	case grid[0]:
		return fmt.Sprintf("algo: ClipCalibration chose B = %.3g, the largest candidate of its grid: the users' gradient-norm quantile may lie higher; a larger ClipCalibration.Anchor or a larger ClipCalibration.TopOctaves lets the search go higher", clip)
	}
	return ""
}
