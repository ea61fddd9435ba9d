package algo

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The count noise of the calibration is sqrt(Queries)/mu_cal with mu_cal = Mu sqrt(Share),
// and the ledger composes the three parts back to Mu.
func TestClipCalibrationNoiseScaleAndLedger(t *testing.T) {
	set := Settings{Mu: 2, Iters: 5, Step: 1, Batch: 1, Clipping: ClipCalibration{Share: 0.1, Queries: 5}}
	slopes := []float64{0.5, 1, 2, 3}
	res, err := Minimize(context.Background(), linearUsers{slopes: slopes, d: 1}, []float64{0}, set, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	muCal := 2 * math.Sqrt(0.1)
	if got := CalibrationNoiseStd(5, muCal); math.Abs(got-math.Sqrt(5)/muCal) > 1e-15 {
		t.Errorf("calibration noise std %v, want sqrt(5)/mu_cal = %v", got, math.Sqrt(5)/muCal)
	}
	if CalibrationNoiseStd(5, math.Inf(1)) != 0 {
		t.Error("no calibration noise without privacy")
	}
	l := res.Ledger
	if math.Abs(l.CalibrationMu-muCal) > 1e-12 || math.Abs(l.GradientMu-2*math.Sqrt(0.9)) > 1e-12 || math.Abs(l.Mu-2) > 1e-12 {
		t.Errorf("ledger %+v: want Mu 2 = compose(GradientMu 2 sqrt(0.9), CalibrationMu 2 sqrt(0.1))", l)
	}
	// The gradient noise uses mu_g, the part left after calibration.
	var noise []float64
	_, err = Minimize(context.Background(), linearUsers{slopes: slopes, d: 1}, []float64{0}, set, rand.New(rand.NewPCG(1, 2)), func(it Iteration) error {
		noise = append(noise, it.NoiseStd/it.Clip)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := 2 * math.Sqrt(5) / (4 * 2 * math.Sqrt(0.9))
	for _, v := range noise {
		if math.Abs(v-want) > 1e-12 {
			t.Errorf("noise std / B = %v, want 2 sqrt(T)/(n mu_g) = %v", v, want)
		}
	}
}

// Without noise the search returns the smallest candidate with at most target norms above
// it; with noise it reads the norms only through counts, so two data sets whose counts agree
// at every candidate get the same B.
func TestCalibratedClipIsTheGridQuantile(t *testing.T) {
	c, err := ClipCalibration{Queries: 6}.resolved()
	if err != nil {
		t.Fatal(err)
	}
	grid := c.grid(1)
	if len(grid) != 64 || grid[0] != 256 || math.Abs(grid[63]-math.Exp2(-16)) > 1e-18 || !slices.IsSortedFunc(grid, func(a, b float64) int { return cmp.Compare(b, a) }) {
		t.Fatalf("grid from %v to %v, %d candidates, want 256 down to 2^-16, 64, decreasing", grid[0], grid[len(grid)-1], len(grid))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	norms := make([]float64, 1000)
	for i := range norms {
		norms[i] = math.Exp(rng.NormFloat64())
	}
	for _, target := range []float64{-1, 0, 100, 500, 1000, 2000} {
		b, counts := calibratedClip(norms, grid, target, 0, rng)
		if len(counts) != 6 {
			t.Errorf("target %v: %d counts released, the noise is calibrated for 6", target, len(counts))
		}
		above := func(x float64) (k int) {
			for _, v := range norms {
				if v > x {
					k++
				}
			}
			return k
		}
		i := slices.Index(grid, b)
		if float64(above(b)) > target && i != 0 {
			t.Errorf("target %v: B = %v has %d norms above", target, b, above(b))
		}
		if i+1 < len(grid) && float64(above(grid[i+1])) <= target {
			t.Errorf("target %v: B = %v, but the smaller candidate %v also has %d <= target above", target, b, grid[i+1], above(grid[i+1]))
		}
	}
	// The same counts at every candidate: the same B, noise included.
	shifted := slices.Clone(norms)
	for i, v := range shifted {
		k := slices.IndexFunc(grid, func(g float64) bool { return g < v })
		if k > 0 {
			shifted[i] = (grid[k] + v) / 2 // another point of the same grid cell
		}
	}
	a, ca := calibratedClip(norms, grid, 300, 5, rand.New(rand.NewPCG(8, 8)))
	b, cb := calibratedClip(shifted, grid, 300, 5, rand.New(rand.NewPCG(8, 8)))
	if a != b || !slices.Equal(ca, cb) || len(ca) != 6 {
		t.Errorf("norms in the same grid cells gave B = %v and %v, counts %v and %v (want 6 each)", a, b, ca, cb)
	}
}

// With a generous Mu the calibrated B sits at the Quantile quantile of the users' first
// gradient norms (within a grid step and the count noise), and B stays fixed afterwards.
func TestClipCalibrationFollowsTheQuantile(t *testing.T) {
	n := 400
	slopes := make([]float64, n)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range slopes {
		slopes[i] = math.Exp(rng.NormFloat64())
	}
	obj := linearUsers{slopes: slopes, d: 1}
	for _, q := range []float64{0, 0.1, 0.5, 0.9} {
		want := q
		if q == 0 {
			want = defaultCalibrationQuantile // the default
		}
		for _, mu := range []float64{4, math.Inf(1)} {
			set := Settings{Mu: mu, Iters: 4, Step: 1, Batch: 2, Clipping: ClipCalibration{Share: 0.5, Quantile: q, Anchor: 1}}
			var clip float64
			res, err := Minimize(context.Background(), obj, []float64{0}, set, rand.New(rand.NewPCG(7, 7)), func(it Iteration) error {
				if it.Iter == 1 {
					clip = it.Clip
				} else if it.Clip != clip {
					t.Errorf("q %v, mu %v: B moved from %v to %v after the calibration", q, mu, clip, it.Clip)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Clip != clip {
				t.Errorf("q %v, mu %v: Result.Clip %v, the iterations used %v", q, mu, res.Clip, clip)
			}
			// The surrogate's gradient of user i is close to its slope; the grid's step is a
			// factor 2^(24/63) = 1.30, so the share at or below B lies between the shares below
			// B/1.35 and 1.35 B.
			below := func(b float64) float64 {
				k := 0
				for _, v := range slopes {
					if v <= b {
						k++
					}
				}
				return float64(k) / float64(n)
			}
			if lo, hi := below(clip/1.35), below(clip*1.35); !(lo <= want+0.02 && hi >= want-0.02) {
				t.Errorf("q %v, mu %v: B = %v has %.3f to %.3f of the users at or below it, want %.2f", q, mu, clip, lo, hi, want)
			}
		}
	}
}

// The default of a private run that leaves Clip at zero is the calibration: 6 noisy counts
// released, mu_cal = Mu sqrt(0.05), and gradient noise 2 B sqrt(T)/(n mu_g) with
// mu_g = Mu sqrt(0.95).
func TestDefaultCalibrationNoiseScaleAndLedger(t *testing.T) {
	slopes := []float64{0.5, 1, 2, 3}
	var noisePerClip []float64
	res, err := Minimize(context.Background(), linearUsers{slopes: slopes, d: 1}, []float64{0}, Settings{Mu: 2, Iters: 5, Batch: 1},
		rand.New(rand.NewPCG(1, 2)), func(it Iteration) error {
			noisePerClip = append(noisePerClip, it.NoiseStd/it.Clip)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(calibrationCounts(res)) != 6 {
		t.Errorf("%d calibration counts released, want 6", len(calibrationCounts(res)))
	}
	l := res.Ledger
	if math.Abs(l.CalibrationMu-2*math.Sqrt(0.05)) > 1e-12 || math.Abs(l.GradientMu-2*math.Sqrt(0.95)) > 1e-12 || math.Abs(l.Mu-2) > 1e-12 {
		t.Errorf("ledger %+v: want Mu 2 = compose(GradientMu 2 sqrt(0.95), CalibrationMu 2 sqrt(0.05))", l)
	}
	want := 2 * math.Sqrt(5) / (4 * 2 * math.Sqrt(0.95))
	for _, v := range noisePerClip {
		if math.Abs(v-want) > 1e-12 {
			t.Errorf("noise std / B = %v, want 2 sqrt(T)/(n mu_g) = %v", v, want)
		}
	}
}

func TestClipCalibrationQuantileIsValidated(t *testing.T) {
	for _, q := range []float64{-0.1, 1, 1.5, math.NaN()} {
		s := Settings{Mu: 1, Clipping: ClipCalibration{Quantile: q, Anchor: 1}}
		_, err := Minimize(context.Background(), linearUsers{slopes: []float64{1, 2}, d: 1}, []float64{0}, s, rand.New(rand.NewPCG(1, 1)), nil)
		if err == nil || !strings.Contains(err.Error(), "Quantile") {
			t.Errorf("Quantile %v: error %v, want one naming Quantile", q, err)
		}
	}
}

// Adaptive clipping with Clip left at zero starts from a calibrated B_0: the ledger then
// composes three parts, mu^2 = mu_g^2 + mu_c^2 + mu_cal^2 with the default shares.
func TestDefaultCalibrationWithAdaptiveClip(t *testing.T) {
	obj := linearUsers{slopes: []float64{0.5, 1, 2, 3, 4, 5}, d: 1}
	s := Settings{Mu: 1, Iters: 4, Batch: 1, Clipping: AdaptiveClip{}}
	var clips []float64
	res, err := Minimize(context.Background(), obj, []float64{0}, s, rand.New(rand.NewPCG(3, 4)), func(it Iteration) error {
		clips = append(clips, it.Clip)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Ledger
	if len(calibrationCounts(res)) != 6 || math.Abs(l.CalibrationMu-math.Sqrt(0.05)) > 1e-12 ||
		math.Abs(l.CountMu-math.Sqrt(0.1)) > 1e-12 || math.Abs(l.GradientMu-math.Sqrt(0.85)) > 1e-12 || math.Abs(l.Mu-1) > 1e-12 {
		t.Errorf("%d calibration counts, ledger %+v; want 6 and mu parts sqrt(0.85), sqrt(0.1), sqrt(0.05) composing to 1", len(calibrationCounts(res)), l)
	}
	if len(clips) != 4 || clips[1] == clips[0] && clips[2] == clips[0] && clips[3] == clips[0] {
		t.Errorf("clips %v: want 4 iterations with B adapting after the calibrated B_0", clips)
	}
}

// A calibrated B at an end of the grid is flagged in Result.Warnings (public: B is a
// function of the released counts); a B inside the grid is not.
func TestCalibrationAtGridEdgeWarns(t *testing.T) {
	for _, c := range []struct {
		slope float64
		want  string
	}{{1e-12, "smallest candidate"}, {1e12, "largest candidate"}, {1, ""}} {
		slopes := make([]float64, 200)
		for i := range slopes {
			slopes[i] = c.slope * (1 + float64(i)/200)
		}
		set := Settings{Mu: math.Inf(1), Iters: 2, Step: 1, Batch: 2, Clipping: ClipCalibration{Share: 0.5, Anchor: 1}}
		res, err := Minimize(context.Background(), linearUsers{slopes: slopes, d: 1}, []float64{0}, set, rand.New(rand.NewPCG(1, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		found := ""
		for _, w := range res.Warnings {
			if strings.Contains(w, "ClipCalibration chose B") {
				found = w
			}
		}
		if c.want == "" && found != "" || c.want != "" && !strings.Contains(found, c.want) {
			t.Errorf("slopes %g: B = %v, calibration warning %q, want one saying %q", c.slope, res.Clip, found, c.want)
		}
		// The outcome says the same, with B and the counts; every iteration used that B.
		out := res.Calibration
		if out == nil || out.Clip != res.Clip || out.Smallest != (c.want == "smallest candidate") || out.Largest != (c.want == "largest candidate") ||
			len(out.Counts) != len(calibrationCounts(res)) || len(res.Clips) != 2 || res.Clips[0] != res.Clip || res.Clips[1] != res.Clip {
			t.Errorf("slopes %g: outcome %+v, clips %v, B %v", c.slope, out, res.Clips, res.Clip)
		}
	}
	// A fixed B: no outcome, and B in every iteration.
	res, err := Minimize(context.Background(), linearUsers{slopes: []float64{1, 2, 3}, d: 1}, []float64{0},
		Settings{Mu: math.Inf(1), Iters: 3, Step: 1, Batch: 2, Clipping: FixedClip(0.7)}, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil || res.Calibration != nil || len(res.Clips) != 3 || res.Clips[2] != 0.7 {
		t.Errorf("fixed B: outcome %+v, clips %v, %v", res.Calibration, res.Clips, err)
	}
}
