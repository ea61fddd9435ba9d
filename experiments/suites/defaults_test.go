package suites

import (
	"math"
	"reflect"
	"testing"

	"dpgibo/algo"
	"dpgibo/experiments/algocfg"
	"dpgibo/tasks/catalog"
)

// algo's zero-value defaults are those of revision algocfg.DefaultsRevision, which the library
// study's "library" cells record in their stems: a change of algo's defaults fails here
// until the revision is raised (and the change then gives those cells new stems).
func TestAlgoDefaultsRevision(t *testing.T) {
	task, err := catalog.New(catalog.Spec{Name: "bowl", D: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := algo.Settings{Iters: 20, Mu: 1}.WithDefaults(task)
	if err != nil {
		t.Fatal(err)
	}
	// bowl: W = 1, S = 1, d = 5.
	l := 1.0 / 6
	want := algo.Settings{Iters: 20, Mu: 1, Batch: 6, MaxBatch: 24, Kernel: algo.RBF{Lengthscale: l, Variance: 1},
		LocalRadius: 2 * l, Step: 1 / math.Sqrt(20), StepRule: algo.AdaGrad,
		Clipping:  algo.ClipCalibration{Share: 0.05, Queries: 6, Octaves: 24, TopOctaves: 8, Quantile: 0.75, Anchor: 0.25 / l},
		PriorMean: algo.PriorUserMean, DesignStarts: 3, DesignEvals: 60, DesignRefine: algo.RefineJoint}
	// Every field of want is explicit, so resolving it changes none of them; it fills the
	// settings' internal form the same way got's was.
	if want, err = want.WithDefaults(task); err != nil {
		t.Fatal(err)
	}
	if algocfg.DefaultsRevision != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("algo's defaults (revision %d) moved:\n got %+v\nwant %+v\nraise algocfg.DefaultsRevision and pin the new values here", algocfg.DefaultsRevision, got, want)
	}
}
