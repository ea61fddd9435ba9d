package baselines

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestGoptunaCMAESBeatsRandomSearch: over 90 evaluations (15 generations of 6 in d = 3) CMA-ES
// concentrates near the minimum of a quadratic, so its mean final loss over 5 seeds is below
// random search's.
func TestGoptunaCMAESBeatsRandomSearch(t *testing.T) {
	mean := meanFinalF(t, []string{"goptuna-cmaes", "random"}, []float64{0.7, -0.4, 1.1}, 90)
	if mean["goptuna-cmaes"] >= mean["random"] {
		t.Errorf("CMA-ES (%.4g) did not beat random search (%.4g)", mean["goptuna-cmaes"], mean["random"])
	}
}

// flat is a quadratic whose every loss is the same constant: CMA-ES's stopping test (no
// change of the loss over its history window) fires and the search restarts.
type flat struct{ *quadratic }

func (f flat) Losses(theta, dst []float64) error {
	if err := f.quadratic.Losses(theta, dst); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = 1
	}
	return nil
}

// TestGoptunaCMAESRestartsOnAFlatLoss: on a constant loss goptuna's ShouldStop fires after its
// history window (10 + ceil(30 d / popsize) = 20 generations of 6 in d = 2, 120
// evaluations); the restart draws a new mean uniformly from the box, so evaluations after it
// leave the neighbourhood of the box centre where the first search started and stayed.
func TestGoptunaCMAESRestartsOnAFlatLoss(t *testing.T) {
	checkRestartOnFlatLoss(t, "goptuna-cmaes", 120)
}

// BenchmarkGoptunaCMAESRun is one CMA-ES run at fig-peers' SVR d = 103 and budget 1,040 on a cheap
// quadratic objective, so that the time is the method's own (ask/tell, covariance update).
func BenchmarkGoptunaCMAESRun(b *testing.B) { benchmarkRuns(b, "goptuna-cmaes", 1040) }

// checkRestartOnFlatLoss runs the CMA-ES called name for 400 evaluations on a constant loss
// in d = 2 from the box centre: its flat-history test fires after 120 evaluations and the
// restart draws a new mean uniformly from the box, so the mean of the points evaluated from
// the later-th on is at least 0.1 away from that of the first 120.
func checkRestartOnFlatLoss(t *testing.T, name string, later int) {
	t.Helper()
	q := newQuadratic([]float64{0, 0}, -2, 2, 3)
	m, _ := New(name, Options{})
	if _, err := m.Run(context.Background(), flat{q}, 400, rand.New(rand.NewPCG(3, 3)), nil); err != nil {
		t.Fatal(err)
	}
	if q.Evals != 400 {
		t.Fatalf("%d evaluations, want the budget 400", q.Evals)
	}
	centreOf := func(pts [][]float64) []float64 {
		c := make([]float64, 2)
		for _, p := range pts {
			c[0] += p[0] / float64(len(pts))
			c[1] += p[1] / float64(len(pts))
		}
		return c
	}
	first, after := centreOf(q.Points[:120]), centreOf(q.Points[later:])
	t.Logf("%s: mean evaluated point: first 120 %v, from the %dth %v", name, first, later, after)
	shift := (first[0]-after[0])*(first[0]-after[0]) + (first[1]-after[1])*(first[1]-after[1])
	if shift < 0.01 {
		t.Errorf("%s: evaluations from the %dth centre on %v, within 0.1 of the first search's %v: no restart", name, later, after, first)
	}
}
