package goptuna

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	randv1 "math/rand"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/tpe"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
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
//     No other code of this project uses that source.
//
// Re-seeding math/rand's process-wide source needs GODEBUG=randseednop=0: since Go 1.24
// math/rand.Seed is a no-op by default. A godebug line applies only in the go.mod of the
// main module (the one holding the program's package main or the package under test), not
// in the go.mod of a dependency such as dpgibo, so a program that imports this package adds
//
//	godebug randseednop=0
//
// to its own go.mod (or `//go:debug randseednop=0` above its package main, or runs with
// the environment variable GODEBUG=randseednop=0). Without it New("goptuna-tpe", ...) returns an
// error saying so, and Run returns the same error should the setting change after New,
// rather than a run that cannot be reproduced. New checks by seeding the process-wide
// source, which Run re-seeds before every trial anyway.
//
// Because that source is shared with the rest of the program, a TPE run would otherwise
// leave it seeded deterministically (the same stream in every process that ran the same
// TPE run). After every Run, whether it succeeded or not, and after New's check, the
// source is therefore re-seeded from an unpredictable seed (math/rand/v2's top-level
// generator, which the runtime seeds from the operating system). Restoring the caller's
// previous state is not possible: math/rand offers no way to read the process-wide
// source's state (Seed only sets it), so code that needs a reproducible stream after a TPE
// run must seed math/rand itself, or better, use a source of its own.
//
// It is NOT differentially private; its ledger is accounting.NonPrivateLedger(). It reports after
// every evaluation (Iter = Evals, Batch = 1).
type TPE struct {
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var tpeInfo = baselines.Info{Name: "goptuna-tpe", Legend: "TPE (goptuna)", Colour: color.RGBA{R: 0x0b, G: 0x5f, B: 0x68, A: 0xff}}

// Info implements baselines.Method.
func (TPE) Info() baselines.Info { return tpeInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (TPE) Sweeps(param string) bool { return param == "noise" }

// Check returns an error when the program lacks the go.mod line goptuna's TPE needs to be
// reproducible (see TPE).
func (TPE) Check() error {
	globalRandMu.Lock()
	defer globalRandMu.Unlock()
	if err := seedGlobalRand(1); err != nil {
		return err
	}
	reseedGlobalRandUnpredictably()
	return nil
}

// reseedGlobalRandUnpredictably seeds math/rand's process-wide source from math/rand/v2's
// top-level generator, which the runtime seeds unpredictably, so that the source left
// behind by TPE differs from process to process (see TPE). The caller holds globalRandMu.
func reseedGlobalRandUnpredictably() {
	//lint:ignore SA1019 the only handle on the process-wide source goptuna draws from
	randv1.Seed(int64(rand.Uint64()))
}

// newTPEStorage is the trials' storage of a TPE run (a variable so that a test can compare
// goptuna's own in-memory storage).
var newTPEStorage = func() goptuna.Storage { return newTrialStore() }

// globalRandMu serialises every use of math/rand's process-wide source by goptuna.
var globalRandMu sync.Mutex

// errGlobalSeed says that math/rand.Seed has no effect in this process and how to fix it.
var errGlobalSeed = errors.New("goptuna v0.9.0's TPE draws from math/rand's process-wide source, " +
	"which math/rand.Seed cannot seed in this program (a no-op by default since Go 1.24), so its runs could not be reproduced; " +
	"add the line `godebug randseednop=0` to the go.mod of your own module (the one with the program's package main; " +
	"a dependency's go.mod does not apply), or run with GODEBUG=randseednop=0")

// seedGlobalRand seeds math/rand's process-wide source and checks that the seed took
// effect: seeded twice, the source must give the first value of a fresh source with that
// seed both times. (A single check draw is not enough: when Seed is a no-op and the source
// happens to sit at the start of that seed's sequence, one draw matches.) The caller holds
// globalRandMu.
func seedGlobalRand(seed int64) error {
	want := randv1.New(randv1.NewSource(seed)).Float64()
	for range 2 {
		//lint:ignore SA1019 the only handle on the process-wide source goptuna draws from
		randv1.Seed(seed)
		if randv1.Float64() != want {
			return errGlobalSeed
		}
	}
	//lint:ignore SA1019 restart the sequence after the check draws
	randv1.Seed(seed)
	return nil
}

// Run implements baselines.Method.
func (m TPE) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "goptuna-tpe"
	defer func() {
		globalRandMu.Lock()
		defer globalRandMu.Unlock()
		reseedGlobalRandUnpredictably()
	}()
	p, err := search.NewSearch("goptuna", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	samplerSeed := int64(rng.Uint64())
	study, err := goptuna.CreateStudy("dpgibo-tpe",
		goptuna.StudyOptionStorage(newTPEStorage()),
		goptuna.StudyOptionSampler(tpe.NewSampler(tpe.SamplerOptionSeed(samplerSeed))),
		goptuna.StudyOptionDirection(goptuna.StudyDirectionMinimize),
		goptuna.StudyOptionLogger(nil),
	)
	if err != nil {
		return baselines.Result{}, fmt.Errorf("goptuna: goptuna-tpe: creating goptuna study: %w", err)
	}
	study.WithContext(ctx)

	d := p.Dim()
	paramNames := make([]string, d)
	for j := range paramNames {
		paramNames[j] = "x" + strconv.Itoa(j)
	}
	var runErr error // the error that stopped the objective, returned as is
	suggest := func(trial goptuna.Trial) ([]float64, error) {
		globalRandMu.Lock()
		defer globalRandMu.Unlock()
		if err := seedGlobalRand(int64(rng.Uint64())); err != nil {
			return nil, err
		}
		theta := make([]float64, d)
		for j := range theta {
			v, err := trial.SuggestFloat(paramNames[j], p.Lo[j], p.Hi[j])
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
			return 0, fmt.Errorf("goptuna: goptuna-tpe: %w", err)
		}
		// observe rejects points outside the box and NaN/Inf losses before goptuna sees them.
		return p.Observe(ctx, theta, baselines.Mean, m.OnScore, cb)
	}
	if err := study.Optimize(objective, budget); err != nil {
		if runErr != nil {
			return baselines.Result{}, runErr
		}
		return baselines.Result{}, fmt.Errorf("goptuna: goptuna-tpe: goptuna: %w", err)
	}
	if p.Best == nil {
		return baselines.Result{}, fmt.Errorf("goptuna: goptuna-tpe: goptuna ran no trial")
	}
	return baselines.Result{Theta: p.Released(), Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}
