package goptuna

import (
	"testing"

	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/score"
)

// TestGoptunaCMAESBeatsRandomSearch: over 90 evaluations (15 generations of 6 in d = 3) CMA-ES
// concentrates near the minimum of a quadratic, so its mean final loss over 5 seeds is below
// random search's.
func TestGoptunaCMAESBeatsRandomSearch(t *testing.T) {
	center := []float64{0.7, -0.4, 1.1}
	cmaes, random := testobj.MeanFinalF(t, CMAES{}, center, 90), testobj.MeanFinalF(t, score.Random{}, center, 90)
	if cmaes >= random {
		t.Errorf("CMA-ES (%.4g) did not beat random search (%.4g)", cmaes, random)
	}
}

// TestGoptunaCMAESRestartsOnAFlatLoss: on a constant loss goptuna's ShouldStop fires after its
// history window (10 + ceil(30 d / popsize) = 20 generations of 6 in d = 2, 120
// evaluations); the restart draws a new mean uniformly from the box, so evaluations after it
// leave the neighbourhood of the box centre where the first search started and stayed.
func TestGoptunaCMAESRestartsOnAFlatLoss(t *testing.T) {
	testobj.CheckRestartOnFlatLoss(t, CMAES{}, 120)
}

// BenchmarkGoptunaCMAESRun is one CMA-ES run at fig-peers' SVR d = 103 and budget 1,040 on a cheap
// quadratic objective, so that the time is the method's own (ask/tell, covariance update).
func BenchmarkGoptunaCMAESRun(b *testing.B) { testobj.BenchmarkRuns(b, CMAES{}, 1040) }
