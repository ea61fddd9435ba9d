// Command usermodule is what a module of a user's own does with dpgibo: it imports
// dpgibo/algo and dpgibo/baselines/registry (through a replace directive in its go.mod), runs
// DP-GIBO with nothing set but Mu, a CMA-ES baseline and a TPE baseline, and checks that a
// budget below DP-GIBO's first batch is an error. It exits non-zero on anything unexpected.
//
// .ci/run builds it outside the repository's module twice: with -goptuna-tpe=error and a go.mod
// without `godebug randseednop=0`, where registry.New("goptuna-tpe") must fail with the line
// to add (the project's own "tpe" runs without it); and with -goptuna-tpe=run after adding
// that line, where goptuna's TPE must run too.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"strings"

	"dpgibo/algo"
	"dpgibo/baselines/registry"
)

// sites is a toy tuning problem: user i's validation loss at theta is
// |theta - optimum|^2 + Offset[i], on the box [0, 10]^2, with a public loss bound.
type sites struct{ offset []float64 }

var optimum = []float64{6.5, 2}

func (s sites) Dim() int                   { return 2 }
func (s sites) Bounds() (lo, hi []float64) { return []float64{0, 0}, []float64{10, 10} }
func (s sites) Users() int                 { return len(s.offset) }
func (s sites) LossBound() float64         { return 200 }
func (s sites) Losses(theta, dst []float64) error {
	base := 0.0
	for j, c := range optimum {
		base += (theta[j] - c) * (theta[j] - c)
	}
	for i, o := range s.offset {
		dst[i] = base + o
	}
	return nil
}

func meanLoss(obj sites, theta []float64) float64 {
	dst := make([]float64, obj.Users())
	_ = obj.Losses(theta, dst)
	m := 0.0
	for _, v := range dst {
		m += v / float64(len(dst))
	}
	return m
}

func main() {
	tpeMode := flag.String("goptuna-tpe", "run", "run: goptuna's TPE must run; error: registry.New(\"goptuna-tpe\") must fail with the go.mod line to add")
	flag.Parse()
	ctx := context.Background()
	obj := sites{offset: make([]float64, 500)}
	for i := range obj.offset {
		obj.offset[i] = float64(i%7) / 7
	}
	start := []float64{1, 9}

	// DP-GIBO with every setting but Mu at its default.
	res, err := algo.Minimize(ctx, obj, start, algo.Settings{Mu: 1}, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		log.Fatalf("algo.Minimize with Settings{Mu: 1}: %v", err)
	}
	// The ledger composes the parts of mu (the calibration's and the gradients'), so its
	// total is 1 up to the rounding of that composition.
	if !res.Ledger.Private || math.Abs(res.Ledger.Mu-1) > 1e-12 || res.Iters == 0 {
		log.Fatalf("algo.Minimize: %d iterations, ledger %+v; want a private release at mu = 1", res.Iters, res.Ledger)
	}
	fmt.Printf("dpgibo   mu=1: %d evaluations, mean loss %.3f -> %.3f, epsilon %.2f at delta %g\n",
		res.Evals, meanLoss(obj, start), meanLoss(obj, res.Theta), res.Ledger.Epsilon, res.Ledger.Delta)
	fmt.Printf("blas: %s\n", res.BLAS)

	// A budget below the first batch (d+1 = 3 evaluations) is an error, not an empty run.
	if _, err := algo.Minimize(ctx, obj, start, algo.Settings{Mu: 1, MaxEvals: 2}, rand.New(rand.NewPCG(1, 2)), nil); err == nil {
		log.Fatal("algo.Minimize with MaxEvals = 2 below the first batch of 3: no error")
	}
	gibo, err := registry.New("gibo", registry.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := gibo.Run(ctx, obj, 2, rand.New(rand.NewPCG(1, 2)), nil); err == nil {
		log.Fatal("gibo with budget 2 below the first batch of 3: no error")
	}

	for _, name := range []string{"cmaes", "tpe", "goptuna-cmaes", "goptuna-tpe"} {
		m, err := registry.New(name, registry.Options{})
		if name == "goptuna-tpe" && *tpeMode == "error" {
			if err == nil || !strings.Contains(err.Error(), "godebug randseednop=0") {
				log.Fatalf("registry.New(\"goptuna-tpe\") without godebug randseednop=0: error %v, want one giving that go.mod line", err)
			}
			fmt.Printf("goptuna-tpe: refused at New as expected: %v\n", err)
			continue
		}
		if err != nil {
			log.Fatalf("registry.New(%q): %v", name, err)
		}
		r, err := m.Run(ctx, obj, 60, rand.New(rand.NewPCG(3, 4)), nil)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		fmt.Printf("%-13s 60 evaluations: mean loss %.3f\n", name, meanLoss(obj, r.Theta))
	}
}
