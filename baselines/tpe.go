package baselines

import (
	"context"
	"errors"
	"fmt"
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/tpe"

	"dpgibo/algo"
)

// TPE is the Tree-structured Parzen Estimator of github.com/c-bata/goptuna (v0.9.0, its
// tpe sampler with default settings: 10 uniform start-up trials, 24 expected-improvement
// candidates) behind the Method interface; it is the worked example of bringing in a
// baseline from an existing library. Each coordinate of theta is a goptuna float parameter
// "x0", "x1", ... on its box interval; each trial is one evaluation; the released theta is
// the best point by mean loss seen so far, tracked here rather than asked from goptuna.
//
// Three traps of goptuna v0.9.0 are handled:
//
//   - its default logger prints debug lines to stdout: the study gets a nil logger;
//   - a NaN objective is stored as a completed trial and can come back as the best: losses
//     are validated before a value reaches goptuna (NaN or Inf is an error naming tpe,
//     theta and the user);
//   - reproducibility: the sampler is seeded explicitly from rng, and, because its
//     Parzen-mixture component is drawn from math/rand's process-wide source
//     (internal/random.ArgMaxMultinomial), that source is re-seeded from rng before each
//     trial's suggestions, under a package lock that serialises TPE runs' suggestions.
//     Re-seeding math/rand's process-wide source needs GODEBUG=randseednop=0 (Go 1.24 made
//     rand.Seed a no-op by default): put `godebug randseednop=0` in go.mod or
//     `//go:debug randseednop=0` in package main. Without it Run returns an error rather
//     than a run that cannot be reproduced. No other code of this project uses that
//     source.
//
// It is NOT differentially private; its ledger is algo.NonPrivateLedger(). It reports after
// every evaluation (Iter = Evals, Batch = 1).
type TPE struct {
	opt Options
}

func newTPE(opt Options) (Method, error) { return &TPE{opt: opt}, nil }

// globalRandMu serialises every use of math/rand's process-wide source by goptuna.
var globalRandMu sync.Mutex

// errGlobalSeed says that math/rand.Seed has no effect in this process.
var errGlobalSeed = errors.New("goptuna v0.9.0's TPE draws from math/rand's process-wide source, " +
	"which cannot be seeded in this process: set GODEBUG=randseednop=0 " +
	"(`godebug randseednop=0` in go.mod or `//go:debug randseednop=0` in package main) for reproducible runs")

// seedGlobalRand seeds math/rand's process-wide source and checks that the seed took
// effect. The caller holds globalRandMu.
func seedGlobalRand(seed int64) error {
	//lint:ignore SA1019 the only handle on the process-wide source goptuna draws from
	randv1.Seed(seed)
	got := randv1.Float64()
	if want := randv1.New(randv1.NewSource(seed)).Float64(); got != want {
		return errGlobalSeed
	}
	//lint:ignore SA1019 restart the sequence after the check draw
	randv1.Seed(seed)
	return nil
}

// Run implements Method.
func (m *TPE) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	const name = "tpe"
	p, err := newProblem(name, obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	samplerSeed := int64(rng.Uint64())
	study, err := goptuna.CreateStudy("dpgibo-tpe",
		goptuna.StudyOptionStorage(goptuna.NewInMemoryStorage()),
		goptuna.StudyOptionSampler(tpe.NewSampler(tpe.SamplerOptionSeed(samplerSeed))),
		goptuna.StudyOptionDirection(goptuna.StudyDirectionMinimize),
		goptuna.StudyOptionLogger(nil),
	)
	if err != nil {
		return algo.Result{}, fmt.Errorf("baselines: tpe: creating goptuna study: %w", err)
	}
	study.WithContext(ctx)

	d := p.dim()
	paramNames := make([]string, d)
	for j := range paramNames {
		paramNames[j] = "x" + strconv.Itoa(j)
	}
	var best []float64
	bestScore := math.Inf(1)
	var runErr error // the error that stopped the objective, returned as is
	suggest := func(trial goptuna.Trial) ([]float64, error) {
		globalRandMu.Lock()
		defer globalRandMu.Unlock()
		if err := seedGlobalRand(int64(rng.Uint64())); err != nil {
			return nil, err
		}
		theta := make([]float64, d)
		for j := range theta {
			v, err := trial.SuggestFloat(paramNames[j], p.lo[j], p.hi[j])
			if err != nil {
				return nil, fmt.Errorf("goptuna suggestion for %s: %w", paramNames[j], err)
			}
			theta[j] = v
		}
		return theta, nil
	}
	objective := func(trial goptuna.Trial) (v float64, err error) {
		defer func() { runErr = err }()
		theta, err := suggest(trial)
		if err != nil {
			return 0, fmt.Errorf("baselines: tpe: %w", err)
		}
		// evaluate rejects points outside the box and NaN/Inf losses before goptuna sees them.
		losses, err := p.evaluate(ctx, theta)
		if err != nil {
			return 0, err
		}
		s := mean(losses)
		if m.opt.OnScore != nil {
			m.opt.OnScore(append([]float64(nil), theta...), s)
		}
		if best == nil || s < bestScore {
			best, bestScore = theta, s
		}
		if err := p.report(cb, best); err != nil {
			return 0, err
		}
		return s, nil
	}
	if err := study.Optimize(objective, budget); err != nil {
		if runErr != nil {
			return algo.Result{}, runErr
		}
		return algo.Result{}, fmt.Errorf("baselines: tpe: goptuna: %w", err)
	}
	if best == nil {
		return algo.Result{}, fmt.Errorf("baselines: tpe: goptuna ran no trial")
	}
	return algo.Result{Theta: append([]float64(nil), best...), Evals: p.evals, Iters: p.evals, Ledger: algo.NonPrivateLedger()}, nil
}
