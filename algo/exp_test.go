package algo

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpNonPositive(t *testing.T) {
	worst := 0.0
	check := func(x float64) {
		want := math.Exp(x)
		got := ExpNonPositive(x)
		if want < 1e-300 {
			return
		}
		worst = math.Max(worst, math.Abs(got-want)/want)
	}
	for i := 0; i <= 2_000_000; i++ {
		check(-708 * float64(i) / 2_000_000)
	}
	rng := rand.New(rand.NewPCG(12, 3))
	for i := 0; i < 200_000; i++ {
		check(-rng.ExpFloat64() * 3)
	}
	if worst > 1e-15 {
		t.Errorf("worst relative error %g, want <= 1e-15", worst)
	}
	if ExpNonPositive(0) != 1 || ExpNonPositive(-1000) != 0 {
		t.Errorf("exp(0) = %v, exp(-1000) = %v", ExpNonPositive(0), ExpNonPositive(-1000))
	}
}
