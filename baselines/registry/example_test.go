package registry_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"dpgibo/baselines/registry"
)

// bowl is a two-hyperparameter validation loss with three users on [-1, 1]^2: user i's loss
// is |theta - (0.3, -0.2)|^2 + 0.1 i. Its public loss bound is 9.
type bowl struct{}

func (bowl) Dim() int                   { return 2 }
func (bowl) Bounds() (lo, hi []float64) { return []float64{-1, -1}, []float64{1, 1} }
func (bowl) Users() int                 { return 3 }
func (bowl) LossBound() float64         { return 9 }
func (bowl) Losses(theta, dst []float64) error {
	base := (theta[0]-0.3)*(theta[0]-0.3) + (theta[1]+0.2)*(theta[1]+0.2)
	for i := range dst {
		dst[i] = base + 0.1*float64(i)
	}
	return nil
}

// Every method is built by name and run the same way; its ledger says whether the release
// is private.
func ExampleNew() {
	for _, name := range []string{"random", "dp-random"} {
		m, err := registry.New(name, registry.Options{Mu: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := m.Run(context.Background(), bowl{}, 30, rand.New(rand.NewPCG(1, 2)), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d evaluations, private %v, mu %v, epsilon at delta 1e-5 %.2f\n",
			name, res.Evals, res.Ledger.Private, res.Ledger.Mu, res.Ledger.Epsilon)
	}
	// Output:
	// random: 30 evaluations, private false, mu +Inf, epsilon at delta 1e-5 +Inf
	// dp-random: 30 evaluations, private true, mu 1, epsilon at delta 1e-5 4.38
}
