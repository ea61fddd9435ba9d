package theory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"

	"dpgibo/algo"
	"dpgibo/internal/pool"
	"dpgibo/internal/rates"
)

// config configures the two sweeps. The zero value of every field means the default given
// in its comment (DefaultConfig spells them out).
type config struct {
	// Users is the grid of n of the rate sweep (default 100, 200, 400, 800).
	Users []int
	// Mus is the grid of mu of the rate sweep (default 1, 2, 4). Every n is also run at
	// mu = +Inf (no privacy noise) to measure the floor that privacy noise must dominate.
	Mus []float64
	// The default grid keeps n*mu in [100, 3200]: below, the privacy noise pushes iterates
	// onto the box's faces (projection binds); above, the gap approaches the surrogate-bias
	// floor measured by the mu = +Inf runs.
	//
	// RateDim is d in the rate sweep (default 2).
	RateDim int
	// RateBatch is the fixed batch of the rate sweep (default RateDim+1, the batch with
	// which the appendix lemma drives the gradient bias to zero on noiseless evaluations).
	RateBatch int
	// Dims is the grid of d of the evaluation sweep (default 1, 2, 4, 8).
	Dims []int
	// EvalUsers and EvalMu are n and mu of the evaluation sweep (default 200 and 1).
	EvalUsers int
	EvalMu    float64
	// EvalNoiseStd is sigma, the evaluation noise of the evaluation sweep (default 0.01);
	// the surrogate is told the same NoiseStd.
	EvalNoiseStd float64
	// Omega is omega of the theorem's bias tolerance epsilon = d*sigma/sqrt(omega)
	// (default 4).
	Omega float64
	// EvalMaxBatchFactor caps the adaptive batch at EvalMaxBatchFactor*(d+1) (default 10,
	// high enough that the cap rarely binds; capped iterations are counted).
	EvalMaxBatchFactor int
	// Iters is T (default 30).
	Iters int
	// Curvature is the quadratic's curvature a, its smoothness L (default 2).
	Curvature float64
	// Step is eta (default 0.25, so eta*a = 0.5 and eta <= 1/L as the theorem asks).
	Step float64
	// Spread is the spread of the users' centres around theta* (default 0.1).
	Spread float64
	// Seeds is the number of seeds per setting of the rate sweep (default 60) and
	// EvalSeeds of the evaluation sweep (default 8).
	Seeds     int
	EvalSeeds int
	// Seed is the base seed.
	Seed uint64
	// Workers is the number of concurrent runs (default min(2, GOMAXPROCS)).
	Workers int
	// Progress, when non-nil, receives a progress bar.
	Progress io.Writer
}

// DefaultConfig is the -suite=theory configuration.
func DefaultConfig() config {
	return config{
		Users:              []int{100, 200, 400, 800},
		Mus:                []float64{1, 2, 4},
		RateDim:            2,
		Dims:               []int{1, 2, 4, 8},
		EvalUsers:          200,
		EvalMu:             1,
		EvalNoiseStd:       0.01,
		Omega:              4,
		EvalMaxBatchFactor: 10,
		Iters:              30,
		Curvature:          2,
		Step:               0.25,
		Spread:             0.1,
		Seeds:              60,
		EvalSeeds:          8,
		Seed:               1,
	}
}

// QuickConfig is the small sweep of -suite=quick: three n, two mu, three d, few seeds.
func QuickConfig() config {
	c := DefaultConfig()
	c.Users = []int{100, 200, 800}
	c.Mus = []float64{1, 4}
	c.Dims = []int{1, 2, 4}
	c.Seeds = 6
	c.EvalSeeds = 2
	c.Iters = 20
	return c
}

func (c config) withDefaults() (config, error) {
	d := DefaultConfig()
	if len(c.Users) == 0 {
		c.Users = d.Users
	}
	if len(c.Mus) == 0 {
		c.Mus = d.Mus
	}
	c.RateDim = cmp.Or(c.RateDim, d.RateDim)
	if c.RateBatch == 0 {
		c.RateBatch = c.RateDim + 1
	}
	if len(c.Dims) == 0 {
		c.Dims = d.Dims
	}
	c.EvalUsers = cmp.Or(c.EvalUsers, d.EvalUsers)
	c.EvalMu = cmp.Or(c.EvalMu, d.EvalMu)
	c.EvalNoiseStd = cmp.Or(c.EvalNoiseStd, d.EvalNoiseStd)
	c.Omega = cmp.Or(c.Omega, d.Omega)
	c.EvalMaxBatchFactor = cmp.Or(c.EvalMaxBatchFactor, d.EvalMaxBatchFactor)
	c.Iters = cmp.Or(c.Iters, d.Iters)
	c.Curvature = cmp.Or(c.Curvature, d.Curvature)
	c.Step = cmp.Or(c.Step, d.Step)
	c.Spread = cmp.Or(c.Spread, d.Spread)
	c.Seeds = cmp.Or(c.Seeds, d.Seeds)
	c.EvalSeeds = cmp.Or(c.EvalSeeds, d.EvalSeeds)
	if c.Workers == 0 {
		c.Workers = min(2, runtime.GOMAXPROCS(0))
	}
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	distinctUsers := map[int]bool{}
	for _, n := range c.Users {
		check(n > 0, "Users must be positive, got %d", n)
		distinctUsers[n] = true
	}
	distinctMus := map[float64]bool{}
	for _, mu := range c.Mus {
		check(mu > 0 && !math.IsInf(mu, 0), "Mus must be positive and finite, got %v", mu)
		distinctMus[mu] = true
	}
	check(len(distinctUsers) >= 2 && len(distinctMus) >= 2, "the rate sweep needs at least two distinct n and two distinct mu")
	distinctDims := map[int]bool{}
	for _, d := range c.Dims {
		check(d > 0, "Dims must be positive, got %d", d)
		distinctDims[d] = true
	}
	check(len(distinctDims) >= 3, "the evaluation sweep needs at least three distinct d, got %d", len(distinctDims))
	check(c.RateDim > 0 && c.RateBatch > 0, "RateDim and RateBatch must be positive")
	check(c.EvalUsers > 0, "EvalUsers must be positive, got %d", c.EvalUsers)
	check(c.EvalMu > 0, "EvalMu must be positive, got %v", c.EvalMu)
	check(c.EvalNoiseStd > 0 && !math.IsInf(c.EvalNoiseStd, 0), "EvalNoiseStd must be positive and finite, got %v", c.EvalNoiseStd)
	check(c.Omega > 0 && !math.IsInf(c.Omega, 0), "Omega must be positive and finite, got %v", c.Omega)
	check(c.EvalMaxBatchFactor > 0, "EvalMaxBatchFactor must be positive")
	check(c.Iters > 0, "Iters must be positive, got %d", c.Iters)
	check(c.Curvature > 0 && !math.IsInf(c.Curvature, 0), "Curvature must be positive and finite, got %v", c.Curvature)
	check(c.Step > 0 && c.Step <= 1/c.Curvature, "Step must lie in (0, 1/Curvature], got %v", c.Step)
	check(c.Spread > 0 && c.Spread <= 0.2, "Spread must lie in (0, 0.2], got %v", c.Spread)
	check(c.Seeds >= 2 && c.EvalSeeds >= 1, "Seeds must be >= 2 and EvalSeeds >= 1")
	check(c.Workers > 0, "Workers must be positive, got %d", c.Workers)
	if len(errs) > 0 {
		return c, fmt.Errorf("theory: invalid Config: %w", errors.Join(errs...))
	}
	return c, nil
}

// setting is one run to do.
type setting struct {
	sweep    string
	dim      int
	users    int
	mu       float64
	seed     int
	batch    int
	biasTol  float64
	noiseStd float64
	maxBatch int
}

// settings lists every run of both sweeps in a fixed order.
func (c config) settings() []setting {
	var out []setting
	mus := append(append([]float64(nil), c.Mus...), math.Inf(1))
	for _, n := range c.Users {
		for _, mu := range mus {
			for s := 0; s < c.Seeds; s++ {
				out = append(out, setting{sweep: rates.RateSweep, dim: c.RateDim, users: n, mu: mu, seed: s, batch: c.RateBatch})
			}
		}
	}
	for _, d := range c.Dims {
		for s := 0; s < c.EvalSeeds; s++ {
			out = append(out, setting{
				sweep: rates.EvalSweep, dim: d, users: c.EvalUsers, mu: c.EvalMu, seed: s,
				biasTol: float64(d) * c.EvalNoiseStd / math.Sqrt(c.Omega), noiseStd: c.EvalNoiseStd,
				maxBatch: c.EvalMaxBatchFactor * (d + 1),
			})
		}
	}
	return out
}

// runOne runs DP-GIBO once. The data (users' centres) and the evaluation noise depend on
// (sweep, d, n, seed) only, so that runs at different mu see the same data; the privacy
// noise and design randomness also depend on mu.
func (c config) runOne(ctx context.Context, st setting) (rates.SweepRow, error) {
	sweepID := uint64(1)
	if st.sweep == rates.EvalSweep {
		sweepID = 2
	}
	dataKey := sweepID<<56 | uint64(st.dim)<<40 | uint64(st.users)<<16 | uint64(st.seed)
	q, err := newQuadratic(st.dim, st.users, c.Curvature, c.Spread, rand.New(rand.NewPCG(c.Seed, dataKey)))
	if err != nil {
		return rates.SweepRow{}, err
	}
	var obj algo.Objective = q
	if st.noiseStd > 0 {
		obj = &noisyQuadratic{quadratic: q, std: st.noiseStd, rng: rand.New(rand.NewPCG(c.Seed^0x6e6f697365, dataKey))}
	}
	clip := gradientBound(st.dim, c.Curvature)
	s := algo.Settings{
		Iters: c.Iters, Batch: st.batch, BiasTol: st.biasTol, MaxBatch: st.maxBatch,
		Clipping: algo.FixedClip(clip), Mu: st.mu, NoiseStd: st.noiseStd, Step: c.Step, StepRule: algo.GradientDescent,
		// Length-scale 1 and design points within 2 of theta, set explicitly so that the
		// sweep does not move with algo's box-derived defaults; the design of the committed
		// sweep (three starts, joint refinement, every point kept) likewise.
		Kernel: algo.RBF{Lengthscale: 1, Variance: 1}, LocalRadius: 2,
		DesignStarts: 3, DesignEvals: 60, DesignRefine: algo.RefineJoint, MaxKept: -1}
	theta0 := make([]float64, st.dim)
	for j := range theta0 {
		theta0[j] = startCoord
	}
	capped, firstBatch := 0, 0
	cb := func(it algo.Iteration) error {
		if it.Iter == 1 {
			firstBatch = it.Batch
		}
		if it.BatchCapped {
			capped++
		}
		return nil
	}
	rng := rand.New(rand.NewPCG(c.Seed, dataKey^math.Float64bits(st.mu)))
	res, err := algo.Minimize(ctx, obj, theta0, s, rng, cb)
	if err != nil {
		return rates.SweepRow{}, fmt.Errorf("theory: %s sweep d=%d n=%d mu=%v seed %d: %w", st.sweep, st.dim, st.users, st.mu, st.seed, err)
	}
	return rates.SweepRow{
		Sweep: st.sweep, Dim: st.dim, Users: st.users, Mu: st.mu, Seed: st.seed, Iters: res.Iters,
		Batch: st.batch, BiasTol: st.biasTol, NoiseStd: st.noiseStd, Clip: clip,
		PrivacyStd: algo.PrivacyNoiseStd(clip, c.Iters, st.users, st.mu),
		Gap:        q.Gap(res.Theta), Dist: q.Dist(res.Theta), Evals: res.Evals, FirstBatch: firstBatch, CappedIters: capped,
	}, nil
}

// startCoord is each coordinate of theta^(0), a data-independent start at distance
// 0.4*sqrt(d) from theta*.
const startCoord = 0.8

// noisyQuadratic adds N(0, std^2) evaluation noise to every per-user loss.
type noisyQuadratic struct {
	*quadratic
	std float64
	rng *rand.Rand
}

func (q *noisyQuadratic) Losses(theta, dst []float64) error {
	if err := q.quadratic.Losses(theta, dst); err != nil {
		return err
	}
	for i := range dst {
		dst[i] += q.std * q.rng.NormFloat64()
	}
	return nil
}

// sweep runs both sweeps and returns one rates.SweepRow per run, in a fixed order whatever
// Workers is.
func sweep(ctx context.Context, cfg config) ([]rates.SweepRow, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	todo := cfg.settings()
	rows := make([]rates.SweepRow, len(todo))
	firstErr := pool.RunWithProgress(ctx, cfg.Workers, len(todo), cfg.Progress, "theory", func(ctx context.Context, i int) error {
		row, err := cfg.runOne(ctx, todo[i])
		if err != nil {
			return err
		}
		rows[i] = row
		return nil
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("theory: %w", err)
	}
	return rows, nil
}
