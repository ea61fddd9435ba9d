package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// releaseRun is one DP-GIBO run under a release rule: its result and what its callback
// saw (the released iterates, privatised gradients and noise levels), and the number of
// evaluations of the objective.
type releaseRun struct {
	res   Result
	iters []Iteration
	evals int
}

// countingObjective counts the calls of Losses.
type countingObjective struct {
	Objective
	calls *int
}

func (c countingObjective) Losses(theta, dst []float64) error {
	*c.calls++
	return c.Objective.Losses(theta, dst)
}

func runWithRelease(t *testing.T, obj Objective, theta0 []float64, release Release, mu float64, seed uint64) releaseRun {
	t.Helper()
	var out releaseRun
	s := Settings{Mu: mu, Iters: 6, Clipping: FixedClip(1), Step: 0.4, Batch: 2, Release: release}
	res, err := Minimize(context.Background(), countingObjective{obj, &out.evals}, theta0, s, rand.New(rand.NewPCG(seed, 11)), func(it Iteration) error {
		out.iters = append(out.iters, it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out.res = res
	return out
}

// replayRelease is the release rule computed here from released values alone: theta0, the
// iterates, the privatised gradients and their public noise levels.
func replayRelease(release Release, threshold float64, theta0 []float64, iters []Iteration) []float64 {
	last := iters[len(iters)-1].Theta
	switch release {
	case ReleaseAverage:
		mean := make([]float64, len(theta0))
		for j := range mean {
			for _, it := range iters {
				mean[j] += it.Theta[j]
			}
			mean[j] /= float64(len(iters))
		}
		return mean
	case ReleaseFallback:
		if iters[0].NoiseStd == 0 {
			return last
		}
		snr := 0.0
		for _, it := range iters {
			sq, noise := 0.0, float64(len(it.Gradient))*it.NoiseStd*it.NoiseStd
			for _, g := range it.Gradient {
				sq += g * g
			}
			snr += (sq - noise) / noise
		}
		if snr/float64(len(iters)) < threshold {
			return theta0
		}
	}
	return last
}

// Each release rule is a function of the released values: replayed from theta0 and what the
// callback released, it gives the run's theta. The rules change nothing else: the same
// iterates, evaluations and ledger as the last-iterate release of the same seed, so they
// read no loss and spend no privacy. Both outcomes of the fallback occur across the mus.
func TestReleaseRulesAreReplayedFromReleasedValues(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(5, 6)), 25, 3, 0.3)
	theta0 := []float64{-1, 1.5, 0.5}
	fellBack, kept := 0, 0
	for _, mu := range []float64{0.05, 0.3, 2, math.Inf(1)} {
		for seed := uint64(1); seed <= 4; seed++ {
			base := runWithRelease(t, obj, theta0, ReleaseLast, mu, seed)
			for _, release := range []Release{ReleaseLast, ReleaseAverage, ReleaseFallback} {
				got := runWithRelease(t, obj, theta0, release, mu, seed)
				want := replayRelease(release, defaultFallbackSNR, theta0, got.iters)
				if !slices.Equal(got.res.Theta, want) {
					t.Fatalf("mu %v, seed %d, %v: released %v, the replay from released values gives %v", mu, seed, release, got.res.Theta, want)
				}
				if got.evals != base.evals || got.res.Evals != base.res.Evals || !reflect.DeepEqual(got.res.Ledger, base.res.Ledger) || len(got.iters) != len(base.iters) {
					t.Fatalf("mu %v, seed %d, %v: %d evaluations and ledger %+v, the last-iterate release %d and %+v", mu, seed, release, got.evals, got.res.Ledger, base.evals, base.res.Ledger)
				}
				for k := range got.iters {
					if !slices.Equal(got.iters[k].Theta, base.iters[k].Theta) || !slices.Equal(got.iters[k].Gradient, base.iters[k].Gradient) {
						t.Fatalf("mu %v, seed %d, %v: iteration %d moved differently from the last-iterate release", mu, seed, release, k+1)
					}
				}
				if release == ReleaseFallback {
					switch warned := slices.ContainsFunc(got.res.Warnings, func(w string) bool { return strings.Contains(w, "released theta0") }); {
					case slices.Equal(want, theta0) && !slices.Equal(want, got.iters[len(got.iters)-1].Theta):
						fellBack++
						if !warned {
							t.Errorf("mu %v, seed %d: fell back to theta0 without saying so: %q", mu, seed, got.res.Warnings)
						}
					case warned:
						t.Errorf("mu %v, seed %d: says it fell back and released the last iterate", mu, seed)
					default:
						kept++
					}
				}
			}
		}
	}
	if fellBack == 0 || kept == 0 {
		t.Errorf("the fallback released theta0 in %d runs and the last iterate in %d; want both to occur", fellBack, kept)
	}
}

// Zero values and bad values of the release settings.
func TestReleaseSettings(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(1, 2)), 10, 2, 0.3)
	set, err := Settings{Mu: 1, Iters: 3}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if set.Release != ReleaseLast || set.FallbackSNR != 0.2 {
		t.Errorf("defaults: Release %v, FallbackSNR %v; want last and 0.2", set.Release, set.FallbackSNR)
	}
	for _, s := range []Settings{{Release: ReleaseFallback + 1}, {FallbackSNR: -1}, {FallbackSNR: math.NaN()}, {FallbackSNR: math.Inf(1)}} {
		s.Mu, s.Iters = 1, 3
		if _, err := Minimize(context.Background(), obj, []float64{0, 0}, s, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
			t.Errorf("%+v: accepted", s)
		}
	}
}

// Shrink and Release are recorded by name: every value round-trips through its name, and an
// unknown name is an error that lists the known ones.
func TestRulesAreRecordedByName(t *testing.T) {
	for _, r := range []Release{ReleaseDefault, ReleaseLast, ReleaseAverage, ReleaseFallback} {
		b, err := r.MarshalText()
		var back Release
		if err != nil || string(b) != r.String() || back.UnmarshalText(b) != nil || back != r {
			t.Errorf("release %v: %q, %v, back %v", r, b, err, back)
		}
	}
	for _, s := range []Shrink{ShrinkDefault, NoShrink, SignalShrink} {
		b, err := s.MarshalText()
		var back Shrink
		if err != nil || string(b) != s.String() || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("shrink %v: %q, %v, back %v", s, b, err, back)
		}
	}
	var r Release
	if err := r.UnmarshalText([]byte("best")); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Errorf("unknown release: %v", err)
	}
	if _, err := (ReleaseFallback + 1).MarshalText(); err == nil {
		t.Errorf("a release without a name encoded")
	}
}
