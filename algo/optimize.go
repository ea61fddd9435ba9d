package algo

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"dpgibo/internal/blasinfo"
)

// Minimize runs Algorithm 1 (DP-GIBO) on obj from theta0 and returns the released
// theta^(T) with the number of evaluations and the privacy ledger.
//
// theta0 must not depend on the validation data (Algorithm 1, line 2). All randomness
// (design starts and privacy noise) comes from rng; nil means a new generator seeded from
// crypto/rand (ChaCha8, 32 bytes) for this call only, the right choice for a release. A
// fixed, reused or published seed lets anyone replay the run, which voids the guarantee. cb, when non-nil, is called after every
// iteration; a non-nil error from it stops the run. ctx is checked before every evaluation
// of obj.Losses.
//
// With s.Mu finite the released sequence theta^(1..T) is Mu-GDP with respect to replacing
// one validation user (Theorem 3.1 of the paper). Mu is split between the gradients and,
// when B is chosen privately (the default, ClipCalibration) or adapted (AdaptiveClip), the
// noised counts that choose it: Mu^2 = GradientMu^2 + CalibrationMu^2 (+ CountMu^2). Each
// iteration's clipped mean gradient has sensitivity 2 B/n and receives Gaussian noise of
// standard deviation PrivacyNoiseStd(B, Iters, n, GradientMu) per coordinate (the
// Iteration's NoiseStd; Result.Ledger gives every part). With s.Mu = +Inf it is GIBO.
func Minimize(ctx context.Context, obj Objective, theta0 []float64, s Settings, rng *rand.Rand, cb Callback) (Result, error) {
	if rng == nil {
		var seed [32]byte
		crand.Read(seed[:]) // never returns an error; the program crashes if the system source fails
		rng = rand.New(rand.NewChaCha8(seed))
	}
	r, err := newRun(obj, theta0, s, rng)
	if err != nil {
		return Result{}, err
	}
	return r.run(ctx, cb)
}

// run is the state of one execution of Algorithm 1.
type run struct {
	obj Objective
	set Settings
	// muGrad is the part of set.Mu spent on the privatised gradients (Settings.muParts).
	muGrad float64
	d, n   int
	lo, hi []float64
	rng    *rand.Rand

	theta []float64
	// theta0 is the start; iterSum the sum of the iterates theta_1..theta_t; snrSum the sum
	// of the iterations' public SNR estimates and snrTerms their number (Settings.Release).
	theta0   []float64
	iterSum  []float64
	snrSum   float64
	snrTerms int
	st       *gradState
	des      *designer
	yt       []float64 // observations, one row of n per design point (m x n)

	grads    []float64 // n x d per-user posterior-mean gradients
	gradSum  []float64 // d
	adagrad  []float64 // running sum of squared privatised gradients
	clip     float64   // B_t, the clipping norm of the current iteration
	lastClip float64   // B of the last iteration clipped (Result.Clip)
	noiseStd float64   // s_t, the gradient noise std of the current iteration
	countStd float64   // std of the count noise of adaptive clipping (0 without it)
	evals    int
	warnings []string // Result.Warnings

	// Per-iteration values the callback reports.
	clipped   int     // users whose gradient norm exceeded clip
	noiseSq   float64 // squared norm of the noise drawn (only with NonPrivateDiagnostics)
	clipCount float64 // released count of users at or under clip (NaN without AdaptiveClip)
	// calibration is ClipCalibration's outcome once it ran (nil before); clips the B of each
	// iteration run.
	calibration *CalibrationOutcome
	clips       []float64
	// calibrated is true once ClipCalibration has spent its part of Mu; calibrationCounts
	// are its released counts.
	calibrated        bool
	calibrationCounts []float64
}

// newRun checks the inputs and initialises theta^(0) and D_{-1} = {} (Algorithm 1, line 2).
func newRun(obj Objective, theta0 []float64, s Settings, rng *rand.Rand) (*run, error) {
	if obj == nil {
		return nil, errors.New("algo: Minimize: nil Objective")
	}
	if rng == nil {
		return nil, errors.New("algo: Minimize: nil rng (pass an explicitly seeded *rand.Rand)")
	}
	d, n := obj.Dim(), obj.Users()
	if d <= 0 {
		return nil, fmt.Errorf("algo: Minimize: objective dimension %d must be positive", d)
	}
	if n <= 0 {
		return nil, fmt.Errorf("algo: Minimize: objective has %d users, need at least one", n)
	}
	lo, hi := obj.Bounds()
	if len(lo) != d || len(hi) != d {
		return nil, fmt.Errorf("algo: Minimize: bounds have lengths %d and %d, want %d", len(lo), len(hi), d)
	}
	if err := checkBox(lo, hi); err != nil {
		return nil, fmt.Errorf("algo: Minimize: %w", err)
	}
	if len(theta0) != d {
		return nil, fmt.Errorf("algo: Minimize: theta0 has %d values, want %d", len(theta0), d)
	}
	for j, v := range theta0 {
		if !(v >= lo[j] && v <= hi[j]) {
			return nil, fmt.Errorf("algo: Minimize: theta0[%d] = %v lies outside the box [%v, %v]", j, v, lo[j], hi[j])
		}
	}
	facts, err := factsOf(obj, lo, hi)
	if err != nil {
		return nil, fmt.Errorf("algo: Minimize: %w", err)
	}
	set, err := s.resolved(facts)
	if err != nil {
		return nil, err
	}
	st := newGradState(set.Kernel, set.noiseVar(), d)
	muGrad, muCount, _ := set.muParts()
	r := &run{
		obj: obj, set: set, d: d, n: n, lo: lo, hi: hi, rng: rng,
		theta:    append([]float64(nil), theta0...),
		theta0:   append([]float64(nil), theta0...),
		iterSum:  make([]float64, d),
		st:       st,
		grads:    make([]float64, n*d),
		gradSum:  make([]float64, d),
		adagrad:  make([]float64, d),
		clip:     set.clip,
		muGrad:   muGrad,
		noiseStd: PrivacyNoiseStd(set.clip, set.Iters, n, muGrad),
		warnings: runWarnings(s, set, facts, n),
	}
	if set.adaptive != nil {
		r.countStd = countNoiseStd(set.Iters, muCount)
	}
	r.des = &designer{set: set, d: d, lo: lo, hi: hi, st: st, rng: rng, llo: make([]float64, d), lhi: make([]float64, d)}
	return r, nil
}

func (r *run) run(ctx context.Context, cb Callback) (Result, error) {
	done := 0
	// fail is the Result and error of a run stopped by err: cancelled when err comes from
	// ctx, failed otherwise.
	fail := func(err error) (Result, error) {
		status := Failed
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			status = Cancelled
		}
		return r.result(done, status), err
	}
	for t := 0; t < r.set.Iters; t++ {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		r.dropOldest()
		r.st.setTheta(r.theta)
		batch, err := r.des.chooseBatch(r.theta)
		if err != nil {
			return fail(fmt.Errorf("algo: iteration %d: design: %w", t+1, err))
		}
		if r.set.MaxEvals > 0 && r.evals+batch.b > r.set.MaxEvals {
			if done == 0 {
				return fail(fmt.Errorf("algo: MaxEvals = %d is below the first iteration's batch of %d evaluations: no iteration could run", r.set.MaxEvals, batch.b))
			}
			return r.result(done, BudgetSpent), nil
		}
		if err := r.evaluateBatch(ctx, batch); err != nil {
			return fail(fmt.Errorf("algo: iteration %d: %w", t+1, err))
		}
		if err := r.updateDesign(batch); err != nil {
			return fail(fmt.Errorf("algo: iteration %d: %w", t+1, err))
		}
		r.userGradients()
		if t == 0 && r.set.calibration != nil {
			r.calibrateClip()
		}
		r.clipAndAggregate()
		r.lastClip = r.clip
		r.clips = append(r.clips, r.clip)
		var diag *NonPrivateDiagnostics
		if r.set.NonPrivateDiagnostics {
			diag = &NonPrivateDiagnostics{ClippedMeanNorm: norm(r.gradSum), ClippedFrac: float64(r.clipped) / float64(r.n)}
		}
		r.privatise()
		r.recordSNR()
		r.clipCount = math.NaN()
		if r.set.adaptive != nil {
			r.clipCount = r.releaseCount(r.n - r.clipped)
		}
		r.step()
		done++
		if cb != nil {
			it := Iteration{Iter: t + 1, Evals: r.evals, Batch: batch.b, BatchCapped: batch.capped, Trace: batch.alpha,
				Theta: append([]float64(nil), r.theta...), Gradient: append([]float64(nil), r.gradSum...),
				Clip: r.clip, NoiseStd: r.noiseStd, ClipCount: r.clipCount}
			if diag != nil {
				diag.NoiseNorm = math.Sqrt(r.noiseSq)
				it.Diagnostics = diag
			}
			if err := cb(it); err != nil {
				return r.result(done, CallbackStop), err
			}
		}
		if r.set.adaptive != nil {
			r.adaptClip()
		}
	}
	return r.result(done, Completed), nil
}

// adaptClip moves the clipping norm for the next iteration by the geometric update of
// adaptive clipping (nextClip) from the count just released, and recalibrates the gradient
// noise to it: s_{t+1} = 2 B_{t+1} sqrt(T)/(n mu_g).
func (r *run) adaptClip() {
	r.clip = nextClip(r.clip, r.clipCount, r.n, *r.set.adaptive)
	r.noiseStd = PrivacyNoiseStd(r.clip, r.set.Iters, r.n, r.muGrad)
}

// result packages the released theta and the ledger of the done iterations. Each release
// used noise calibrated to Mu/sqrt(Iters), so stopping early only lowers the total mu.
func (r *run) result(done int, status Status) Result {
	muGrad, muCount, muCal := r.set.muParts()
	if !r.calibrated {
		muCal = 0
	}
	queries := len(r.calibrationCounts)
	led := withCalibration(newSplitLedger(muGrad, muCount, r.set.Iters), muCal, queries)
	switch {
	case done < r.set.Iters && led.Private:
		scale := math.Sqrt(float64(done) / float64(r.set.Iters))
		led = withCalibration(newSplitLedger(muGrad*scale, muCount*scale, done), muCal, queries)
	case r.set.calibration == nil || r.calibrated:
		// Every part of Settings.Mu was spent: the ledger reports that Mu exactly.
		led = spentSplit(led, r.set.Mu)
	}
	theta, why := r.released(done)
	warnings := append([]string(nil), r.warnings...)
	if why != "" {
		warnings = append(warnings, why)
	}
	return Result{Theta: theta, Evals: r.evals, Iters: done, Ledger: led,
		Warnings: warnings,
		Clip:     r.lastClip, Clips: append([]float64(nil), r.clips...), Calibration: r.calibration, BLAS: blasinfo.Backend(), Status: status}
}

// evaluateBatch obtains the (noisy) per-user evaluations y_i at the batch points
// (Algorithm 1, line 5, second half), checking ctx before each evaluation.
func (r *run) evaluateBatch(ctx context.Context, batch designResult) error {
	d, n := r.d, r.n
	m := r.st.m
	r.yt = append(r.yt, make([]float64, batch.b*n)...)
	for p := 0; p < batch.b; p++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		point := batch.z[p*d : (p+1)*d]
		row := r.yt[(m+p)*n : (m+p+1)*n]
		if err := r.obj.Losses(point, row); err != nil {
			return fmt.Errorf("evaluating theta=%v: %w", point, err)
		}
		r.evals++
		for i, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("loss of user %d is %v at theta=%v", i, v, point)
			}
		}
	}
	return nil
}

// updateDesign sets D_t = D_{t-1} u z (Algorithm 1, line 6) by a block update of the
// Cholesky factor, which also updates (k(D,D)+noiseVar I)^{-1} grad k(D, theta).
func (r *run) updateDesign(batch designResult) error {
	if err := r.st.grow(rowsOf(batch.z, batch.b, r.d)); err != nil {
		return err
	}
	r.des.remember(r.theta, batch.z)
	return nil
}

// dropOldest enforces MaxKept before a new batch is added: the oldest points (and their
// observations) leave D and the factorisation is rebuilt. A MaxKept <= 0 keeps every point.
func (r *run) dropOldest() {
	keep := r.set.MaxKept
	if keep <= 0 || r.st.m <= keep {
		return
	}
	drop := r.st.m - keep
	d, n := r.d, r.n
	pts := append([]float64(nil), r.st.pts[drop*d:r.st.m*d]...)
	r.yt = append(r.yt[:0], r.yt[drop*n:]...)
	if err := r.st.reset(rowsOf(pts, keep, d)); err != nil {
		// Refactorising a subset of a positive-definite design cannot fail in exact
		// arithmetic; keep the larger design if it does numerically.
		panic(err)
	}
}

// userGradients computes every user's surrogate posterior-mean gradient at theta^(t)
// (Algorithm 1, line 7): G = Y W with W = (k(D,D)+noiseVar I)^{-1} grad k(D, theta), held
// by the state as P. With PriorUserMean each user's mean observation is subtracted first;
// a constant prior mean has zero gradient.
func (r *run) userGradients() {
	d, n, m := r.d, r.n, r.st.m
	yt := blas64.General{Rows: m, Cols: n, Stride: n, Data: r.yt[:m*n]}
	g := blas64.General{Rows: n, Cols: d, Stride: d, Data: r.grads}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, yt, r.st.pMat(), 0, g)
	if r.set.PriorMean != PriorUserMean {
		return
	}
	r.subtractUserMeans()
}

// subtractUserMeans turns the zero-prior gradients Y W into those of the per-user constant
// prior mean (PriorUserMean): row i becomes (y_i - mean(y_i)) W. With Standardise each row
// is then divided by the standard deviation of y_i over the kept design (a row with zero
// spread becomes zero), the gradient of the standardised observations (Algorithm 1,
// line 7, on standardised data).
func (r *run) subtractUserMeans() {
	d, n, m := r.d, r.n, r.st.m
	colSum := make([]float64, d)
	for p := 0; p < m; p++ {
		for j := 0; j < d; j++ {
			colSum[j] += r.st.p[p*d+j]
		}
	}
	for i := 0; i < n; i++ {
		mean := 0.0
		for p := 0; p < m; p++ {
			mean += r.yt[p*n+i]
		}
		mean /= float64(m)
		row := r.grads[i*d : (i+1)*d]
		for j := range row {
			row[j] -= mean * colSum[j]
		}
		if !r.set.Standardise {
			continue
		}
		ss := 0.0
		for p := 0; p < m; p++ {
			dev := r.yt[p*n+i] - mean
			ss += dev * dev
		}
		sd := math.Sqrt(ss / float64(m))
		for j := range row {
			if sd > 0 {
				row[j] /= sd
			} else {
				row[j] = 0
			}
		}
	}
}

// clipAndAggregate forms g_t = (1/n) sum_i g_i min{1, Clip/|g_i|} (Algorithm 1, line 8)
// with Clip = B_t, and counts the users it clipped. Replacing one user changes g_t by at
// most 2*B_t/n in Euclidean norm.
func (r *run) clipAndAggregate() {
	r.clipped = clipAndAverage(r.gradSum, r.grads, r.n, r.d, r.clip)
}

// clipAndAverage writes into dst the mean over the n rows of grads (n x d) of each row
// scaled to norm at most clip, and returns the number of rows whose norm exceeded clip.
func clipAndAverage(dst, grads []float64, n, d int, clip float64) (clipped int) {
	for j := range dst {
		dst[j] = 0
	}
	for i := 0; i < n; i++ {
		row := grads[i*d : (i+1)*d]
		norm := math.Sqrt(blas64.Dot(blas64.Vector{N: d, Inc: 1, Data: row}, blas64.Vector{N: d, Inc: 1, Data: row}))
		scale := 1.0
		if norm > clip {
			scale = clip / norm
			clipped++
		}
		for j, v := range row {
			dst[j] += scale * v
		}
	}
	for j := range dst {
		dst[j] /= float64(n)
	}
	return clipped
}

// norm is the Euclidean norm of x.
func norm(x []float64) float64 {
	v := blas64.Vector{N: len(x), Inc: 1, Data: x}
	return math.Sqrt(blas64.Dot(v, v))
}

// privatise adds the privacy noise of Algorithm 1, line 9: w_t ~ N(0, I) scaled by
// 2*Clip*sqrt(T)/(n*Mu) (with adaptive clipping 2*B_t*sqrt(T)/(n*mu_g)), a fresh draw every
// iteration. Nothing is added when Mu = +Inf. With NonPrivateDiagnostics it also keeps the
// squared norm of the noise drawn, from the same draws.
func (r *run) privatise() {
	r.noiseSq = 0
	if r.noiseStd == 0 {
		return
	}
	for j := range r.gradSum {
		w := r.noiseStd * r.rng.NormFloat64()
		r.gradSum[j] += w
		if r.set.NonPrivateDiagnostics {
			r.noiseSq += w * w
		}
	}
}

// shrinkFactor is the factor Settings.Shrink applies to this iteration's step (between
// Algorithm 1's lines 8 and 9): 1 unless SignalShrink, then max(0, 1 - d s^2/|g~|^2) of the
// privatised gradient g~ and its public noise level s. It reads only those, so it is
// post-processing.
func (r *run) shrinkFactor() float64 {
	if r.set.Shrink != SignalShrink || r.noiseStd == 0 {
		return 1
	}
	sq := 0.0
	for _, g := range r.gradSum {
		sq += g * g
	}
	if sq == 0 {
		return 0
	}
	return max(0, 1-float64(len(r.gradSum))*r.noiseStd*r.noiseStd/sq)
}

// recordSNR adds this iteration's public SNR estimate (|g~|^2 - d s^2)/(d s^2) of the
// privatised gradient g~ and its public noise level s (Settings.Release) to the run's sum;
// nothing without privacy noise. It reads only those, so it is post-processing.
func (r *run) recordSNR() {
	if r.noiseStd == 0 {
		return
	}
	noise := float64(r.d) * r.noiseStd * r.noiseStd
	r.snrSum += (floats.Dot(r.gradSum, r.gradSum) - noise) / noise
	r.snrTerms++
}

// released is the theta the run releases after done iterations (Algorithm 1, line 11,
// "Return theta^(T)", with Settings.Release): the last iterate, the mean of the iterates,
// or theta0 when the mean public SNR estimate is below FallbackSNR, then with why, the line
// Result.Warnings gives. It reads only released values, so it is post-processing. A run
// stopped before its first iteration releases theta0 under every rule.
func (r *run) released(done int) (theta []float64, why string) {
	switch {
	case done == 0:
	case r.set.Release == ReleaseAverage:
		theta = make([]float64, r.d)
		for j, s := range r.iterSum {
			theta[j] = min(max(s/float64(done), r.lo[j]), r.hi[j])
		}
		return theta, ""
	case r.set.Release == ReleaseFallback && r.snrTerms > 0:
		if snr := r.snrSum / float64(r.snrTerms); snr < r.set.FallbackSNR {
			return append([]float64(nil), r.theta0...), fmt.Sprintf(
				"algo: released theta0: the privatised gradients' mean public SNR estimate is %.3g, below FallbackSNR %g (the steps were mostly noise)", snr, r.set.FallbackSNR)
		}
	}
	return append([]float64(nil), r.theta...), ""
}

// step moves theta along the privatised gradient (Algorithm 1, line 9) with the chosen
// step rule and projects onto the box Theta. It only reads the privatised gradient, so
// it is post-processing.
func (r *run) step() {
	const adagradFloor = 1e-8
	step := r.set.Step * r.shrinkFactor()
	for j, g := range r.gradSum {
		switch r.set.StepRule {
		case AdaGrad:
			r.adagrad[j] += g * g
			r.theta[j] -= step * g / (math.Sqrt(r.adagrad[j]) + adagradFloor)
		default:
			r.theta[j] -= step * g
		}
		r.theta[j] = math.Min(math.Max(r.theta[j], r.lo[j]), r.hi[j])
		r.iterSum[j] += r.theta[j]
	}
}

// rowsOf views z (b rows of d, row-major) as a blas64.General.
func rowsOf(z []float64, b, d int) blas64.General {
	return blas64.General{Rows: b, Cols: d, Stride: d, Data: z[:b*d]}
}
