package algo_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// users is a two-hyperparameter objective: user i's validation loss is a bowl centred at a
// user-specific point near (0.5, -0.3).
type users struct{ centers [][2]float64 }

func (u users) Dim() int                   { return 2 }
func (u users) Bounds() (lo, hi []float64) { return []float64{-2, -2}, []float64{2, 2} }
func (u users) Users() int                 { return len(u.centers) }
func (u users) Losses(theta, dst []float64) error {
	for i, c := range u.centers {
		dx, dy := theta[0]-c[0], theta[1]-c[1]
		dst[i] = 1 - math.Exp(-(dx*dx+dy*dy)/2)
	}
	return nil
}

func (u users) mean(theta []float64) float64 {
	dst := make([]float64, u.Users())
	_ = u.Losses(theta, dst)
	s := 0.0
	for _, v := range dst {
		s += v
	}
	return s / float64(len(dst))
}

// Privately tune two hyperparameters against 500 validation users at mu = 1.
func Example() {
	data := rand.New(rand.NewPCG(1, 2))
	obj := users{}
	for i := 0; i < 500; i++ {
		obj.centers = append(obj.centers, [2]float64{0.5 + 0.3*data.NormFloat64(), -0.3 + 0.3*data.NormFloat64()})
	}
	theta0 := []float64{-1.5, 1.5} // chosen without looking at the data
	settings := algo.Settings{
		Mu:       1,                   // total privacy: 1-GDP
		Iters:    20,                  // T
		Clipping: algo.FixedClip(0.5), // B
		Step:     0.3,                 // AdaGrad step
	}
	res, err := algo.Minimize(context.Background(), obj, theta0, settings, rand.New(rand.NewPCG(7, 7)), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("evaluations: %d over %d iterations\n", res.Evals, res.Iters)
	fmt.Printf("validation loss fell: %v\n", obj.mean(res.Theta) < 0.5*obj.mean(theta0))
	fmt.Printf("released theta is %.0f-GDP, (%.2f, 1e-05)-DP\n", res.Ledger.Mu, res.Ledger.Epsilon)
	// Output:
	// evaluations: 60 over 20 iterations
	// validation loss fell: true
	// released theta is 1-GDP, (4.38, 1e-05)-DP
}

// sites is a tuning problem on a box of another scale: two hyperparameters in log10 units,
// theta in [-8, -2] x [-5, -1], and each validation user's loss lies in [0, 1], a bound
// known without the data and declared through LossBound (algo.LossBounder).
type sites struct{ best [][2]float64 }

func (s sites) Dim() int                   { return 2 }
func (s sites) Bounds() (lo, hi []float64) { return []float64{-8, -5}, []float64{-2, -1} }
func (s sites) Users() int                 { return len(s.best) }
func (s sites) LossBound() float64         { return 1 }
func (s sites) Losses(theta, dst []float64) error {
	for i, b := range s.best {
		dx, dy := theta[0]-b[0], theta[1]-b[1]
		dst[i] = 1 - math.Exp(-(dx*dx+dy*dy)/8)
	}
	return nil
}

func (s sites) mean(theta []float64) float64 {
	dst := make([]float64, s.Users())
	_ = s.Losses(theta, dst)
	m := 0.0
	for _, v := range dst {
		m += v / float64(len(dst))
	}
	return m
}

// Only Mu is set: the kernel's length-scale, the design's radius, the clipping norm and the
// step follow from the box and the declared loss bound.
func ExampleMinimize() {
	data := rand.New(rand.NewPCG(3, 4))
	obj := sites{}
	for i := 0; i < 1000; i++ {
		obj.best = append(obj.best, [2]float64{-4 + 0.5*data.NormFloat64(), -2.5 + 0.5*data.NormFloat64()})
	}
	theta0 := []float64{-7, -4.5} // chosen without looking at the data
	settings := algo.Settings{Mu: 1}
	used, err := settings.WithDefaults(obj)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("defaults: length-scale %.3g, LocalRadius %.3g, Step %.3g, %d iterations of %d points, B calibrated from the data: %v\n",
		used.Kernel.Lengthscale, used.LocalRadius, used.Step, used.Iters, used.Batch, calibrated(used.Clipping))
	res, err := algo.Minimize(context.Background(), obj, theta0, settings, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d evaluations; mean validation loss %.2f at theta0, %.2f at the release\n", res.Evals, obj.mean(theta0), obj.mean(res.Theta))
	fmt.Printf("released theta is %.0f-GDP, (%.2f, %g)-DP\n", res.Ledger.Mu, res.Ledger.Epsilon, res.Ledger.Delta)
	// Output:
	// defaults: length-scale 0.833, LocalRadius 1.67, Step 1.12, 20 iterations of 3 points, B calibrated from the data: true
	// 60 evaluations; mean validation loss 0.80 at theta0, 0.06 at the release
	// released theta is 1-GDP, (4.38, 1e-05)-DP
}

// calibrated reports whether the clipping rule chooses B from the data.
func calibrated(r algo.ClipRule) bool {
	_, ok := r.(algo.ClipCalibration)
	return ok
}
