package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// unitFacts are the public facts of a d-dimensional box of side 1 without a loss bound.
func unitFacts(d int) publicFacts { return publicFacts{d: d, width: 1, lossScale: 1} }

// scaledBowls is a family of per-user bowls on an anisotropic box, rescaled: theta lives in
// Box * [lo, hi] and user i's loss is LossScale * (1 - exp(-|theta/Box - c_i|^2 / 2)), so
// LossScale bounds every loss. It optionally declares that bound.
type scaledBowls struct {
	centers   [][]float64
	lo, hi    []float64
	Box       float64
	LossScale float64
}

func (o *scaledBowls) Dim() int           { return len(o.lo) }
func (o *scaledBowls) Users() int         { return len(o.centers) }
func (o *scaledBowls) LossBound() float64 { return o.LossScale }
func (o *scaledBowls) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, len(o.lo)), make([]float64, len(o.hi))
	for j := range lo {
		lo[j], hi[j] = o.Box*o.lo[j], o.Box*o.hi[j]
	}
	return lo, hi
}
func (o *scaledBowls) Losses(theta, dst []float64) error {
	for i, c := range o.centers {
		s := 0.0
		for j, v := range theta {
			u := v/o.Box - c[j]
			s += u * u
		}
		dst[i] = o.LossScale * (1 - math.Exp(-s/2))
	}
	return nil
}

// noBound hides an objective's LossBound.
type noBound struct{ Objective }

func newScaledBowls(box, loss float64) *scaledBowls {
	rng := rand.New(rand.NewPCG(4, 4))
	o := &scaledBowls{lo: []float64{-2, -3, -1}, hi: []float64{2, 1, 3}, Box: box, LossScale: loss}
	for i := 0; i < 200; i++ {
		o.centers = append(o.centers, []float64{0.8 + 0.3*rng.NormFloat64(), -1 + 0.3*rng.NormFloat64(), 0.5 + 0.3*rng.NormFloat64()})
	}
	return o
}

func TestDefaultsFormulas(t *testing.T) {
	// Sides 4, 4, 4 times Box = 3: W = 12, l = 2, S = 8.
	obj := newScaledBowls(3, 8)
	s, err := Settings{Mu: 1}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Settings{Mu: 1, Iters: 20, Kernel: RBF{Lengthscale: 2, Variance: 1}, LocalRadius: 4, Clipping: FixedClip(1), Step: 12 / math.Sqrt(20)}.lowerClipping()
	if s.Iters != want.Iters || s.Kernel != want.Kernel || s.LocalRadius != want.LocalRadius || s.clip != want.clip || s.Step != want.Step {
		t.Errorf("defaults {Iters %d, Kernel %+v, LocalRadius %v, Clip %v, Step %v}, want {%d, %+v, %v, %v, %v}",
			s.Iters, s.Kernel, s.LocalRadius, s.clip, s.Step, want.Iters, want.Kernel, want.LocalRadius, want.clip, want.Step)
	}
	if s.Batch != 4 || s.MaxBatch != 16 {
		t.Errorf("Batch %d MaxBatch %d, want d+1 = 4 and 4(d+1) = 16", s.Batch, s.MaxBatch)
	}
	// A private AdaGrad run that leaves Clip at zero calibrates B (Clip anchors the search).
	wantCal := ClipCalibration{Share: 0.05, Queries: 6, Octaves: 24, TopOctaves: 8, Quantile: 0.75}
	if s.calibration == nil || *s.calibration != wantCal {
		t.Errorf("ClipCalibration %+v, want %+v", s.calibration, wantCal)
	}
	for _, c := range []struct {
		name string
		s    Settings
	}{
		{"Clip set", Settings{Mu: 1, Clipping: FixedClip(2)}},
		{"non-private", Settings{Mu: math.Inf(1)}},
		{"gradient descent", Settings{Mu: 1, StepRule: GradientDescent}},
	} {
		r, err := c.s.WithDefaults(obj)
		if err != nil {
			t.Fatal(err)
		}
		if r.calibration != nil {
			t.Errorf("%s: the defaults turned ClipCalibration on", c.name)
		}
		if again, _ := r.WithDefaults(obj); again.calibration != nil || again.clip != r.clip {
			t.Errorf("%s: WithDefaults is not idempotent: %+v then %+v", c.name, r, again)
		}
	}
	if again, _ := s.WithDefaults(obj); *again.calibration != *s.calibration || again.clip != s.clip || again.Step != s.Step {
		t.Errorf("WithDefaults is not idempotent: %+v then %+v", s, again)
	}
	// Without a loss bound S = 1; gradient descent's step is W/(Iters Clip).
	s, err = Settings{Mu: 1, Iters: 10, StepRule: GradientDescent}.WithDefaults(noBound{obj})
	if err != nil {
		t.Fatal(err)
	}
	if s.clip != 0.125 || s.Step != 12/(10*0.125) {
		t.Errorf("without a loss bound: Clip %v Step %v, want 1/(4*2) = 0.125 and 12/(10*0.125) = 9.6", s.clip, s.Step)
	}
	// Fields that are set are kept, and defaults derive from them.
	s, err = Settings{Mu: 1, Kernel: RBF{Lengthscale: 0.5}, Clipping: FixedClip(3), Step: 0.1, LocalRadius: 7}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kernel != (RBF{Lengthscale: 0.5, Variance: 1}) || s.clip != 3 || s.Step != 0.1 || s.LocalRadius != 7 {
		t.Errorf("set fields changed: %+v", s)
	}
	s, _ = Settings{Mu: 1, Kernel: RBF{Lengthscale: 0.5}}.WithDefaults(obj)
	if s.LocalRadius != 1 || s.clip != 8/(4*0.5) {
		t.Errorf("with length-scale 0.5: LocalRadius %v Clip %v, want 1 and 4", s.LocalRadius, s.clip)
	}
}

func TestBoxWidthIsTheMedianPositiveSide(t *testing.T) {
	for _, c := range []struct {
		lo, hi []float64
		want   float64
	}{
		{[]float64{0, 0, 0}, []float64{1, 100, 3}, 3},
		{[]float64{0, 0, 0, 0}, []float64{2, 4, 6, 100}, 5},
		{[]float64{0, 5, 0}, []float64{2, 5, 6}, 4}, // a zero side is ignored
		{[]float64{1, 1}, []float64{1, 1}, 1},       // no positive side
	} {
		if got := BoxWidth(c.lo, c.hi); got != c.want {
			t.Errorf("BoxWidth(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// badBound declares an unusable loss bound.
type badBound struct {
	Objective
	v float64
}

func (b badBound) LossBound() float64 { return b.v }

func TestBadLossBoundIsAnError(t *testing.T) {
	obj := newScaledBowls(1, 1)
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err := Minimize(context.Background(), badBound{noBound{obj}, v}, []float64{0, 0, 0}, Settings{Mu: 1}, rand.New(rand.NewPCG(1, 1)), nil)
		if err == nil || !strings.Contains(err.Error(), "LossBound") {
			t.Errorf("LossBound() = %v: error %v, want one naming LossBound", v, err)
		}
	}
}

// TestDefaultsTravel: with the defaults, rescaling the box by 4 and the losses (and their
// bound) by 8 gives the same run, rescaled: every released theta is 4 times the original's.
// Length-scale, local radius and step scale with the box and the clipping norm with
// loss / length-scale, so clipping, privacy noise and AdaGrad steps act alike. The first
// step agrees to 1e-5 of the side; later ones drift slightly because the design's L-BFGS
// stops on absolute thresholds while the acquisition scales with 1/length-scale^2, so they
// are compared to 3% of the box side (the runs move by about half the side). The old fixed
// defaults (length-scale 1, Clip 1, Step 0.3 whatever the box) fail this by far.
func TestDefaultsTravel(t *testing.T) {
	const side = 4 // every side of the unscaled box
	run := func(box, loss float64) []Iteration {
		obj := newScaledBowls(box, loss)
		theta0 := []float64{-1.5 * box, 0.5 * box, 2.5 * box}
		var its []Iteration
		_, err := Minimize(context.Background(), obj, theta0, Settings{Mu: 1, Iters: 8}, rand.New(rand.NewPCG(9, 9)),
			func(it Iteration) error { its = append(its, it); return nil })
		if err != nil {
			t.Fatal(err)
		}
		return its
	}
	base, scaled := run(1, 1), run(4, 8)
	if len(base) != len(scaled) || len(base) != 8 {
		t.Fatalf("%d and %d iterations, want 8", len(base), len(scaled))
	}
	theta0 := []float64{-1.5, 0.5, 2.5}
	moved := 0.0
	for k := range base {
		tol := 0.03 * side
		if k == 0 {
			tol = 1e-5 * side
		}
		for j, v := range base[k].Theta {
			if got := scaled[k].Theta[j] / 4; math.Abs(got-v) > tol {
				t.Errorf("iteration %d coordinate %d: rescaled run released %v / 4 = %v, original %v (tolerance %v)", k+1, j, scaled[k].Theta[j], got, v, tol)
			}
			moved = math.Max(moved, math.Abs(v-theta0[j]))
		}
	}
	if moved < side/4 {
		t.Fatalf("theta moved at most %v from theta0; the test compares too little", moved)
	}
}

// The batch design's defaults depend on the mode: a fixed batch keeps Algorithm 1's design
// (three starts, joint refinement, every point kept); an adaptive batch the design shown
// loss-equivalent (one start, no joint refinement, the last 8(d+1) points).
func TestDesignDefaultsByMode(t *testing.T) {
	obj := newScaledBowls(1, 1) // d = 3
	fixed, err := Settings{Mu: 1}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if fixed.DesignStarts != 3 || fixed.DesignRefine != RefineJoint || fixed.MaxKept != 0 {
		t.Errorf("fixed batch: starts %d, refine %d, kept %d; want 3, RefineJoint, 0 (every point)", fixed.DesignStarts, fixed.DesignRefine, fixed.MaxKept)
	}
	adaptive, err := Settings{Mu: 1, BiasTol: 0.5}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if adaptive.DesignStarts != 1 || adaptive.DesignRefine != RefineNone || adaptive.MaxKept != 32 {
		t.Errorf("adaptive batch: starts %d, refine %d, kept %d; want 1, RefineNone, 8(d+1) = 32", adaptive.DesignStarts, adaptive.DesignRefine, adaptive.MaxKept)
	}
	kept, err := Settings{Mu: 1, BiasTol: 0.5, MaxKept: -1, DesignRefine: RefineJoint, DesignStarts: 3}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if kept.MaxKept != -1 || kept.DesignRefine != RefineJoint || kept.DesignStarts != 3 {
		t.Errorf("explicit adaptive settings were overridden: %+v", kept)
	}
	if _, err := (Settings{Mu: 1, DesignRefine: 7}).WithDefaults(obj); err == nil {
		t.Error("an unknown DesignRefine was accepted")
	}
}
