package baselines

import (
	"context"
	"errors"
	randv1 "math/rand"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"dpgibo/algo"
)

// TestTPEIsReproducibleUnderConcurrency runs TPE with two seeds concurrently (as the
// experiment runner's workers do) and checks each trace against a sequential run: the
// re-seeding of math/rand's process-wide source is serialised correctly.
func TestTPEIsReproducibleUnderConcurrency(t *testing.T) {
	const budget = 25 // well past goptuna's 10 uniform start-up trials
	run := func(seed uint64) [][]float64 {
		q := newQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
		m, _ := New("tpe", Options{})
		if _, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(seed, 3)), nil); err != nil {
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

// TestTPERefusesUnseedableGlobalRand: with math/rand.Seed a no-op (the Go 1.24+ default in
// a module without `godebug randseednop=0`), New("tpe") fails with an error giving the
// go.mod line to add, and a method built before the setting changed refuses to Run rather
// than running irreproducibly.
func TestTPERefusesUnseedableGlobalRand(t *testing.T) {
	built, err := New("tpe", Options{})
	if err != nil {
		t.Fatalf("New(\"tpe\") with randseednop=0: %v", err)
	}
	t.Setenv("GODEBUG", "randseednop=1")
	if _, err := New("tpe", Options{}); err == nil || !strings.Contains(err.Error(), "`godebug randseednop=0`") || !strings.Contains(err.Error(), "go.mod") {
		t.Fatalf("New(\"tpe\") with randseednop=1: error %v, want one giving the go.mod line godebug randseednop=0", err)
	}
	q := newQuadratic([]float64{0, 0}, -1, 1, 3)
	_, err = built.Run(context.Background(), q, 5, rand.New(rand.NewPCG(1, 1)), nil)
	if err == nil || !strings.Contains(err.Error(), "randseednop=0") {
		t.Fatalf("Run with randseednop=1: error %v, want one explaining randseednop=0", err)
	}
	if q.Evals != 0 {
		t.Errorf("%d evaluations before the error", q.Evals)
	}
}

// TestTPEBeatsRandomSearch: after its 10 uniform start-up trials TPE concentrates near the
// minimum, so over 60 evaluations its mean final loss over 5 seeds is below random search's.
func TestTPEBeatsRandomSearch(t *testing.T) {
	mean := map[string]float64{}
	for _, name := range []string{"tpe", "random"} {
		for seed := uint64(1); seed <= 5; seed++ {
			q := newQuadratic([]float64{0.7, -0.4}, -2, 2, 3)
			m, _ := New(name, Options{})
			res, err := m.Run(context.Background(), q, 60, rand.New(rand.NewPCG(seed, 5)), nil)
			if err != nil {
				t.Fatal(err)
			}
			mean[name] += q.f(res.Theta) / 5
		}
	}
	t.Logf("mean final f over 5 seeds, 60 evaluations: tpe %.4g, random %.4g", mean["tpe"], mean["random"])
	if mean["tpe"] >= mean["random"] {
		t.Errorf("TPE (%.4g) did not beat random search (%.4g)", mean["tpe"], mean["random"])
	}
}

// TestTPELeavesGlobalRandUnpredictable: New("tpe") and a TPE run seed math/rand's
// process-wide source deterministically while they work; afterwards it is re-seeded
// unpredictably, so two identical runs leave different streams behind, and New does not
// leave the stream of its check seed.
func TestTPELeavesGlobalRandUnpredictable(t *testing.T) {
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
		m, err := New("tpe", Options{})
		if err != nil {
			t.Fatal(err)
		}
		q := newQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
		if _, err := m.Run(context.Background(), q, 12, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			t.Fatal(err)
		}
		return draw()
	}
	if a, b := afterRun(), afterRun(); slices.Equal(a, b) {
		t.Errorf("two identical TPE runs left the same math/rand stream behind: %v", a)
	}
	if _, err := New("tpe", Options{}); err != nil {
		t.Fatal(err)
	}
	seeded := randv1.New(randv1.NewSource(1))
	want := []int64{seeded.Int63(), seeded.Int63(), seeded.Int63(), seeded.Int63()}
	if got := draw(); slices.Equal(got, want) {
		t.Errorf("New(\"tpe\") left math/rand's process-wide source at its check seed 1: %v", got)
	}
	// A run that fails after the first trial's re-seeding also re-seeds unpredictably.
	failing := func() []int64 {
		m, _ := New("tpe", Options{})
		q := newQuadratic([]float64{0.3, -0.5}, -2, 2, 3)
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
