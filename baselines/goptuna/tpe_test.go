// goptuna v0.9.0's TPE draws from math/rand's process-wide source; TPE re-seeds it, which
// needs this setting (see TPE).

//go:debug randseednop=0

package goptuna

import (
	"context"
	"errors"
	randv1 "math/rand"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/c-bata/goptuna"

	"dpgibo/algo"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/score"
)

// TestGoptunaTPEIsReproducibleUnderConcurrency runs TPE with two seeds concurrently (as the
// experiment runner's workers do) and checks each trace against a sequential run: the
// re-seeding of math/rand's process-wide source is serialised correctly.
func TestGoptunaTPEIsReproducibleUnderConcurrency(t *testing.T) {
	const budget = 25 // well past goptuna's 10 uniform start-up trials
	run := func(seed uint64) [][]float64 {
		q := testobj.NewQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
		if _, err := (TPE{}).Run(context.Background(), q, budget, rand.New(rand.NewPCG(seed, 3)), nil); err != nil {
			t.Error(err)
		}
		return q.Points
	}
	want := [][][]float64{run(1), run(2)}
	for rep := 0; rep < 3; rep++ {
		got := make([][][]float64, 2)
		var wg sync.WaitGroup
		for k := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[k] = run(uint64(k + 1))
			}()
		}
		wg.Wait()
		for k := range got {
			if !slices.EqualFunc(got[k], want[k], slices.Equal) {
				t.Fatalf("repetition %d: concurrent TPE run with seed %d evaluated different points than the sequential run", rep, k+1)
			}
		}
	}
}

// TestGoptunaTPERefusesUnseedableGlobalRand: with math/rand.Seed a no-op (the Go 1.24+ default in
// a module without `godebug randseednop=0`), TPE's Check (which the registry's constructor
// runs) fails with an error giving the go.mod line to add, and a method checked before the
// setting changed refuses to Run rather than running irreproducibly.
func TestGoptunaTPERefusesUnseedableGlobalRand(t *testing.T) {
	built := TPE{}
	if err := built.Check(); err != nil {
		t.Fatalf("TPE.Check with randseednop=0: %v", err)
	}
	t.Setenv("GODEBUG", "randseednop=1")
	if err := (TPE{}).Check(); err == nil || !strings.Contains(err.Error(), "`godebug randseednop=0`") || !strings.Contains(err.Error(), "go.mod") {
		t.Fatalf("TPE.Check with randseednop=1: error %v, want one giving the go.mod line godebug randseednop=0", err)
	}
	q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
	_, err := built.Run(context.Background(), q, 5, rand.New(rand.NewPCG(1, 1)), nil)
	if err == nil || !strings.Contains(err.Error(), "randseednop=0") {
		t.Fatalf("Run with randseednop=1: error %v, want one explaining randseednop=0", err)
	}
	if q.Evals != 0 {
		t.Errorf("%d evaluations before the error", q.Evals)
	}
}

// TestGoptunaTPEBeatsRandomSearch: after its 10 uniform start-up trials TPE concentrates near the
// minimum, so over 60 evaluations its mean final loss over 5 seeds is below random search's.
func TestGoptunaTPEBeatsRandomSearch(t *testing.T) {
	center := []float64{0.7, -0.4}
	tpe, random := testobj.MeanFinalF(t, TPE{}, center, 60), testobj.MeanFinalF(t, score.Random{}, center, 60)
	if tpe >= random {
		t.Errorf("TPE (%.4g) did not beat random search (%.4g)", tpe, random)
	}
}

// TestGoptunaTPELeavesGlobalRandUnpredictable: TPE's Check and a TPE run seed math/rand's
// process-wide source deterministically while they work; afterwards it is re-seeded
// unpredictably, so two identical runs leave different streams behind, and Check does not
// leave the stream of its check seed.
func TestGoptunaTPELeavesGlobalRandUnpredictable(t *testing.T) {
	draw := func() []int64 {
		globalRandMu.Lock()
		defer globalRandMu.Unlock()
		v := make([]int64, 4)
		for k := range v {
			v[k] = randv1.Int63()
		}
		return v
	}
	afterRun := func() []int64 {
		m := TPE{}
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
		q := testobj.NewQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
		if _, err := m.Run(context.Background(), q, 12, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			t.Fatal(err)
		}
		return draw()
	}
	if a, b := afterRun(), afterRun(); slices.Equal(a, b) {
		t.Errorf("two identical TPE runs left the same math/rand stream behind: %v", a)
	}
	if err := (TPE{}).Check(); err != nil {
		t.Fatal(err)
	}
	seeded := randv1.New(randv1.NewSource(1))
	want := []int64{seeded.Int63(), seeded.Int63(), seeded.Int63(), seeded.Int63()}
	if got := draw(); slices.Equal(got, want) {
		t.Errorf("TPE.Check left math/rand's process-wide source at its check seed 1: %v", got)
	}
	// A run that fails after the first trial's re-seeding also re-seeds unpredictably.
	failing := func() []int64 {
		m := TPE{}
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
		q := testobj.NewQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
		stop := errors.New("stop")
		_, err := m.Run(context.Background(), q, 12, rand.New(rand.NewPCG(1, 1)), func(algo.Iteration) error { return stop })
		if !errors.Is(err, stop) {
			t.Fatalf("run stopped by its callback: error %v", err)
		}
		return draw()
	}
	if a, b := failing(), failing(); slices.Equal(a, b) {
		t.Errorf("two identical stopped TPE runs left the same math/rand stream behind: %v", a)
	}
}

// The trial store that keeps GetAllTrials' slice gives TPE the samples goptuna's own
// in-memory storage gives: the same points, bit for bit, at a d where each trial samples many
// parameters and well past the start-up trials.
func TestGoptunaTPEStoreKeepsTheSamples(t *testing.T) {
	const budget = 40
	run := func() [][]float64 {
		q := testobj.NewQuadratic([]float64{0.3, -0.5, 0.1, 0.7, -0.2, 0.4, -0.6, 0.05}, -2, 2, 3)
		if _, err := (TPE{}).Run(context.Background(), q, budget, rand.New(rand.NewPCG(7, 3)), nil); err != nil {
			t.Fatal(err)
		}
		return q.Points
	}
	kept := run()
	defer func(f func() goptuna.Storage) { newTPEStorage = f }(newTPEStorage)
	newTPEStorage = func() goptuna.Storage { return goptuna.NewInMemoryStorage() }
	fresh := run()
	if len(kept) != budget || !slices.EqualFunc(kept, fresh, slices.Equal) {
		t.Fatalf("TPE evaluated %d points with the kept trials, %d with goptuna's storage, or different ones", len(kept), len(fresh))
	}
}

// The store drops its slice on every change of a trial but a parameter's, and a parameter set
// afterwards shows in the slice it keeps (the maps are shared).
func TestTrialStoreStaysCurrent(t *testing.T) {
	s := newTrialStore()
	study, err := s.CreateNewStudy("t")
	if err != nil {
		t.Fatal(err)
	}
	id, _ := s.CreateNewTrial(study)
	all, _ := s.GetAllTrials(study)
	if err := s.SetTrialParam(id, "x0", 0.5, goptuna.UniformDistribution{Low: 0, High: 1}); err != nil {
		t.Fatal(err)
	}
	again, _ := s.GetAllTrials(study)
	if &again[0] != &all[0] || again[0].InternalParams["x0"] != 0.5 {
		t.Fatalf("after SetTrialParam: kept slice %v, param %v", &again[0] == &all[0], again[0].InternalParams)
	}
	if err := s.SetTrialValue(id, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTrialState(id, goptuna.TrialStateComplete); err != nil {
		t.Fatal(err)
	}
	after, _ := s.GetAllTrials(study)
	if after[0].State != goptuna.TrialStateComplete || after[0].Value != 3 {
		t.Fatalf("after SetTrialState: %+v", after[0])
	}
	s.CreateNewTrial(study)
	if after, _ = s.GetAllTrials(study); len(after) != 2 {
		t.Fatalf("after CreateNewTrial: %d trials", len(after))
	}
}

// BenchmarkGoptunaTPERun is one TPE run at fig-peers' SVR d = 103 on a cheap quadratic objective
// (the objective costs microseconds, so the time is TPE's own), with a budget of 200 trials,
// with the kept trials (the default) and with goptuna's in-memory storage. fig-peers runs
// 1,040 trials; TPE's own time grows about quadratically in them.
func BenchmarkGoptunaTPERun(b *testing.B) {
	for _, store := range []struct {
		name string
		new  func() goptuna.Storage
	}{{"kept-trials", func() goptuna.Storage { return newTrialStore() }}, {"goptuna-inmemory", func() goptuna.Storage { return goptuna.NewInMemoryStorage() }}} {
		b.Run(store.name, func(b *testing.B) {
			defer func(f func() goptuna.Storage) { newTPEStorage = f }(newTPEStorage)
			newTPEStorage = store.new
			testobj.BenchmarkRuns(b, TPE{}, 200)
		})
	}
}
