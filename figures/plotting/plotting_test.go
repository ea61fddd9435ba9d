package plotting

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"dpgibo/internal/artefacts"
	"dpgibo/internal/rates"
	"dpgibo/internal/records"
)

// traceRows makes a small figure CSV: for every d, config and method, seeds runs of iters
// iterations whose loss decreases from 1 towards a floor that depends on the method.
func traceRows(fig, task, data string, dims []int, configs, methods []string, seeds, iters int) []records.Row {
	var rows []records.Row
	for _, d := range dims {
		for ci, cfg := range configs {
			for mi, m := range methods {
				for s := 1; s <= seeds; s++ {
					for it := 0; it <= iters; it++ {
						floor := 0.1 * float64(mi+ci+1)
						loss := floor + (1-floor)*math.Exp(-float64(it)/3) + 0.01*float64(s)
						r := records.Row{
							Suite: "test", Figure: fig, Config: cfg, Task: task, Data: data, Method: m, D: d,
							NUsers: 10, Mu: math.Inf(1), EvalNoise: 0.01, Iters: iters, Seed: s, Iter: it,
							Evals: it * (d + 1) * (1 + ci), Batch: d + 1, Loss: loss, DPEpsilon: math.Inf(1),
						}
						if m == "dpgibo" && it > 0 {
							// DP-GIBO's non-private diagnostics: SNR = 0.5 / (0.1 sqrt(d)) * seed.
							r.GradNorm, r.NoiseScale = records.Some(0.5*float64(s)), records.Some(0.1)
						}
						rows = append(rows, r)
					}
				}
			}
		}
	}
	return rows
}

func writeCSV[T any](t *testing.T, dir, name string, rows []T) {
	t.Helper()
	b, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// smallInputs writes one small CSV per figure into dir.
func smallInputs(t *testing.T, dir string) {
	gibo := []string{"dpgibo", "gibo", "random"}
	writeCSV(t, dir, "fig1", traceRows("fig1", "grouplasso", "synthetic", []int{2, 10}, []string{""}, gibo, 3, 5))
	writeCSV(t, dir, "fig2a", traceRows("fig2a", "gpreg", "synthetic", []int{2, 5}, []string{""}, append(gibo, "ucb"), 3, 5))
	writeCSV(t, dir, "fig2a-b3", traceRows("fig2a-b3", "gpreg", "synthetic", []int{2, 5}, []string{""}, append(gibo, "ucb"), 3, 5))
	writeCSV(t, dir, "fig2b", traceRows("fig2b", "svr", "ctslice-synthetic", []int{103}, []string{""}, gibo, 2, 4))
	writeCSV(t, dir, "fig2b-real", traceRows("fig2b-real", "svr", "ctslice-sample", []int{103}, []string{""}, gibo, 2, 4))
	writeCSV(t, dir, "fig3ab", traceRows("fig3ab", "gpreg", "synthetic", []int{15}, []string{"bias_tol=0.1", "bias_tol=1"}, []string{"dpgibo"}, 3, 5))
	writeCSV(t, dir, "speedup", traceRows("speedup", "gpreg", "synthetic", []int{15}, []string{"bias_tol=0", "bias_tol=0.5"}, []string{"dpgibo"}, 3, 5))
	writeCSV(t, dir, "fig3c", traceRows("fig3c", "gpreg", "synthetic", []int{15}, []string{"mu=0.1", "mu=+Inf"}, []string{"dpgibo"}, 3, 5))
	writeCSV(t, dir, "fig3d", traceRows("fig3d", "gpreg", "synthetic", []int{15}, []string{"noise=0", "noise=0.1"}, []string{"dpgibo"}, 3, 5))
	misspec := traceRows("noise-misspec", "gpreg", "synthetic", []int{15}, []string{"noise_std=0.01", "noise_std=1"}, []string{"dpgibo"}, 3, 5)
	misspec = append(misspec, traceRows("noise-misspec", "gpreg", "synthetic", []int{15}, []string{""}, []string{"random"}, 3, 5)...)
	writeCSV(t, dir, "noise-misspec", misspec)
	// The design study's figures: DP-GIBO only, as their paper figures.
	study := map[string]struct {
		task, data string
		dims       []int
		configs    []string
	}{
		"fig1":          {"grouplasso", "synthetic", []int{2, 10}, []string{""}},
		"fig2a":         {"gpreg", "synthetic", []int{2, 5}, []string{""}},
		"fig2b":         {"svr", "ctslice-synthetic", []int{103}, []string{""}},
		"fig2b-real":    {"svr", "ctslice-sample", []int{103}, []string{""}},
		"fig3d":         {"gpreg", "synthetic", []int{15}, []string{"noise=0", "noise=0.1"}},
		"fig3ab":        {"gpreg", "synthetic", []int{15}, []string{"bias_tol=0.1", "bias_tol=1"}},
		"fig3c":         {"gpreg", "synthetic", []int{15}, []string{"mu=0.1", "mu=+Inf"}},
		"noise-misspec": {"gpreg", "synthetic", []int{15}, []string{"noise_std=0.01", "noise_std=1"}},
	}
	for _, base := range designStudyBases {
		f, ok := study[base]
		if !ok {
			t.Fatalf("no test input for the design study's figures of %s", base)
		}
		for _, prefix := range []string{"design-", "joint-"} {
			writeCSV(t, dir, prefix+base, traceRows(prefix+base, f.task, f.data, f.dims, f.configs, []string{"dpgibo"}, 3, 5))
		}
	}
	for _, base := range []string{"fig2b", "fig2b-real"} {
		f := study[base]
		writeCSV(t, dir, "f32-"+base, traceRows("f32-"+base, f.task, f.data, f.dims, f.configs, []string{"dpgibo", "gibo"}, 3, 5))
	}
	writeCSV(t, dir, "clip-sweep", traceRows("clip-sweep", "gpreg", "synthetic", []int{15}, []string{"clip=0.1", "clip=10"}, []string{"dpgibo"}, 3, 5))
	for fig, task := range map[string]string{"defaults-grouplasso": "grouplasso", "defaults-gpreg": "gpreg", "defaults-svr": "svr",
		"defaults-bowl": "bowl", "defaults-ridge": "ridge"} {
		writeCSV(t, dir, fig, traceRows(fig, task, "synthetic", []int{5}, []string{"step=0.06,clip=0.2", "defaults=library", "defaults=calibrated"}, []string{"dpgibo"}, 3, 5))
	}
	writeCSV(t, dir, "fig2a-clip", traceRows("fig2a-clip", "gpreg", "synthetic", []int{10}, []string{"clip=0.1", "clip=3", "adaptive"}, []string{"dpgibo"}, 3, 5))
	private := traceRows("fig-private", "grouplasso", "synthetic", []int{2, 10}, []string{"mu=1", "mu=0.2"}, []string{"dpgibo", "dp-random", "dp-ucb"}, 3, 4)
	private = append(private, traceRows("fig-private", "svr", "ctslice-synthetic", []int{103}, []string{"mu=1", "mu=0.2"}, []string{"dpgibo", "dp-random"}, 3, 2)...)
	writeCSV(t, dir, "fig-private", private)
	sel := traceRows("fig-private-select", "grouplasso", "synthetic", []int{2, 10}, []string{"mu=1", "mu=0.5"},
		[]string{"dpgibo", "dp-rnm", "dp-select-negbin", "dp-hypo"}, 3, 4)
	sel = append(sel, traceRows("fig-private-select", "grouplasso", "synthetic", []int{2, 10}, []string{"currency=gdp,mu=1"},
		[]string{"dpgibo", "dp-select-geometric"}, 3, 4)...)
	writeCSV(t, dir, "fig-private-select", sel)
	var peers []records.Row
	for _, task := range []struct {
		name, data string
		dims       []int
	}{{"grouplasso", "synthetic", []int{10, 20}}, {"svr", "ctslice-synthetic", []int{103}}} {
		peers = append(peers, traceRows("fig-peers", task.name, task.data, task.dims, []string{"mu=1", "mu=0.2"}, []string{"dpgibo"}, 3, 4)...)
		peers = append(peers, traceRows("fig-peers", task.name, task.data, task.dims, []string{""}, []string{"gibo", "random", "tpe", "cmaes"}, 3, 4)...)
	}
	writeCSV(t, dir, "fig-peers", peers)
	var theta []records.ThetaRow
	for _, m := range []string{"dpgibo", "gibo"} {
		for it := 0; it <= 5; it++ {
			for _, j := range []int{101, 102} {
				theta = append(theta, records.ThetaRow{Suite: "test", Figure: "fig3f", Task: "svr", Data: "ctslice-synthetic",
					Method: m, D: 103, Seed: 1, Iter: it, Evals: it * 104, Coord: j, Name: "log C", Value: math.Sin(float64(it + j))})
			}
		}
	}
	writeCSV(t, dir, "fig3f", theta)
	// The precision study's figures hold the svr blocks only.
	for i := range theta {
		theta[i].Figure = "f32-fig3f"
	}
	writeCSV(t, dir, "f32-fig3f", theta)
	writeCSV(t, dir, "f32-fig-private", traceRows("f32-fig-private", "svr", "ctslice-synthetic", []int{103}, []string{"mu=1", "mu=0.2"}, []string{"dpgibo", "dp-random"}, 3, 2))
	f32peers := traceRows("f32-fig-peers", "svr", "ctslice-synthetic", []int{103}, []string{"mu=1", "mu=0.2"}, []string{"dpgibo"}, 3, 4)
	f32peers = append(f32peers, traceRows("f32-fig-peers", "svr", "ctslice-synthetic", []int{103}, []string{""}, []string{"gibo", "random", "tpe", "cmaes"}, 3, 4)...)
	writeCSV(t, dir, "f32-fig-peers", f32peers)
	// The theory sweep's raw rows: gap ~ 1/(n mu) on the rate grid, evaluations ~ d.
	var sweep []rates.SweepRow
	for seed := 1; seed <= 2; seed++ {
		for _, n := range []int{100, 200, 400} {
			for _, mu := range []float64{1, 2, math.Inf(1)} {
				sweep = append(sweep, rates.SweepRow{Sweep: rates.RateSweep, Dim: 4, Users: n, Mu: mu, Seed: seed, Iters: 20,
					Gap: (1 + 0.1*float64(seed)) / (float64(n) * math.Min(mu, 8)), Dist: 0.1, Evals: 100, FirstBatch: 5})
			}
		}
		for _, d := range []int{2, 4, 8} {
			sweep = append(sweep, rates.SweepRow{Sweep: rates.EvalSweep, Dim: d, Users: 400, Mu: 1, Seed: seed, Iters: 20,
				Gap: 0.01, Dist: 0.1, Evals: 30*d + seed, FirstBatch: d + 1 + seed})
		}
	}
	b, err := records.Marshal(sweep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, TheoryFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEveryFigureRendersNonEmptyImages(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	smallInputs(t, in)
	// The default run draws the suites' own figures; the artefact checks (artefacts.Env)
	// also the studies' variants of them (design-, joint-, f32-, defaults-).
	names := Names()
	if !artefacts.Requested() {
		names = slices.DeleteFunc(slices.Clone(names), func(n string) bool {
			return slices.ContainsFunc([]string{"design-", "joint-", "f32-", "defaults-"}, func(p string) bool { return strings.HasPrefix(n, p) })
		})
	}
	files, err := RenderDirAs(in, out, names, Formats)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(names) * len(Formats); len(files) != want {
		t.Fatalf("wrote %d files, want %d", len(files), want)
	}
	for _, name := range names {
		for _, format := range Formats {
			path := filepath.Join(out, name+"."+format)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) < 1000 {
				t.Errorf("%s: only %d bytes", path, len(b))
			}
		}
		// The PNG must show the data: pixels in the colour of the first method or sweep
		// value (both are the same blue), not just axes.
		b, _ := os.ReadFile(filepath.Join(out, name+".png"))
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s.png: %v", name, err)
		}
		bounds := img.Bounds()
		// Readable when projected or printed: at least 1200 px wide, never a strip.
		if w, h := bounds.Dx(), bounds.Dy(); w < 1200 || float64(w)/float64(h) > 2.5 {
			t.Errorf("%s.png: %d x %d px, want width >= 1200 and width/height <= 2.5", name, w, h)
		}
		blue := 0
		for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
			for x := bounds.Min.X; x < bounds.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if r>>8 == 0x1f && g>>8 == 0x77 && bl>>8 == 0xb4 {
					blue++
				}
			}
		}
		if blue < 20 {
			t.Errorf("%s.png: %d pixels in the first curve's colour; the data was not drawn", name, blue)
		}
	}
	// Every figure with private runs has a privacy SNR panel.
	for _, name := range names {
		svg, _ := os.ReadFile(filepath.Join(out, name+".svg"))
		if want := !strings.HasSuffix(name, "fig3f") && name != theoryName; strings.Contains(string(svg), "privacy SNR") != want {
			t.Errorf("%s.svg: SNR panel present = %v, want %v", name, !want, want)
		}
	}
	// Every loss figure says what its bands are and over how many seeds: these inputs have
	// 2 or 3 seeds, too few for a 95% CI of the median, so the bands are the seeds' range.
	for _, name := range names {
		if strings.HasSuffix(name, "fig3f") || name == theoryName {
			continue
		}
		svg, _ := os.ReadFile(filepath.Join(out, name+".svg"))
		if !strings.Contains(string(svg), "seeds, band: min-max (too few seeds for a 95% CI)") &&
			!strings.Contains(string(svg), "seeds, bars: min-max (too few seeds for a 95% CI)") {
			t.Errorf("%s.svg does not say its seed count and band", name)
		}
		if strings.Contains(string(svg), "CI of the median") {
			t.Errorf("%s.svg calls the range of 2 or 3 seeds a CI of the median", name)
		}
	}
	// theory.png is drawn from theory_sweep.csv with its fitted rates.
	if svg, _ := os.ReadFile(filepath.Join(out, "theory.svg")); !strings.Contains(string(svg), "fit: n^") {
		t.Error("theory.svg does not show the fitted rate")
	}
	// SVR figures carry the data label in their titles.
	svg, _ := os.ReadFile(filepath.Join(out, "fig2b.svg"))
	if !strings.Contains(string(svg), "ctslice-synthetic") {
		t.Error("fig2b.svg does not name the stand-in data ctslice-synthetic")
	}
	svg, _ = os.ReadFile(filepath.Join(out, "fig2b-real.svg"))
	if !strings.Contains(string(svg), "ctslice-sample") {
		t.Error("fig2b-real.svg does not name the real sample ctslice-sample")
	}
}

func TestLegendNamesArePapers(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	smallInputs(t, in)
	if _, err := RenderDir(in, out, []string{"fig2a", "fig-private", "fig-peers"}); err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(filepath.Join(out, "fig2a.svg"))
	for _, name := range []string{"DP-GIBO", "GIBO", "Random Search", "UCB-BO"} {
		if !strings.Contains(string(svg), ">"+name+"<") {
			t.Errorf("fig2a.svg lacks legend entry %q", name)
		}
	}
	svg, _ = os.ReadFile(filepath.Join(out, "fig-private.svg"))
	for _, name := range []string{"DP-GIBO", "DP-Random", "DP-UCB"} {
		if !strings.Contains(string(svg), ">"+name+"<") {
			t.Errorf("fig-private.svg lacks legend entry %q", name)
		}
	}
	svg, _ = os.ReadFile(filepath.Join(out, "fig-peers.svg"))
	for _, name := range []string{"GIBO", "Random Search", "TPE", "CMA-ES"} {
		if !strings.Contains(string(svg), ">"+name+"<") {
			t.Errorf("fig-peers.svg lacks legend entry %q", name)
		}
	}
	if n := strings.Count(string(svg), ">DP-GIBO, "); n != 2*2 {
		t.Errorf("fig-peers.svg has %d legend entries DP-GIBO at a mu, want one per mu in each of its 2 panels", n)
	}
}

func TestRenderErrors(t *testing.T) {
	in := t.TempDir()
	if _, err := RenderDir(in, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no figure CSV") {
		t.Errorf("empty input directory: got %v", err)
	}
	if _, err := RenderDir(filepath.Join(in, "absent"), t.TempDir(), nil); err == nil {
		t.Error("missing input directory: no error")
	}
	smallInputs(t, in)
	if _, err := RenderDir(in, t.TempDir(), []string{"fig9"}); err == nil || !strings.Contains(err.Error(), `unknown figure "fig9"`) {
		t.Errorf("unknown figure: got %v", err)
	}
	writeCSV(t, in, "fig1", []records.Row{})
	if _, err := RenderDir(in, t.TempDir(), []string{"fig1"}); err == nil || !strings.Contains(err.Error(), "no rows") {
		t.Errorf("header-only CSV: got %v", err)
	}
	os.WriteFile(filepath.Join(in, "fig1.csv"), []byte("suite,figure\n"), 0o644)
	if _, err := RenderDir(in, t.TempDir(), []string{"fig1"}); err == nil || !strings.Contains(err.Error(), "fig1.csv: line 1: missing required columns config,") {
		t.Errorf("CSV without most columns: got %v", err)
	}
}

func TestSNROf(t *testing.T) {
	r := records.Row{D: 4, GradNorm: records.Some(0.3), NoiseScale: records.Some(0.05)}
	if got := snrOf(r); math.Abs(got-3) > 1e-12 { // 0.3 / (0.05 * 2)
		t.Fatalf("SNR %v, want 3", got)
	}
	for _, r := range []records.Row{{D: 4, GradNorm: records.Some(0.3)}, {D: 4, GradNorm: records.Some(0.3), NoiseScale: records.Some(0)}, {D: 4}} {
		if !math.IsNaN(snrOf(r)) {
			t.Errorf("row %+v: SNR %v, want NaN (no privacy noise or no diagnostics)", r, snrOf(r))
		}
	}
}

func TestTickLabelsAtLeastTenPoints(t *testing.T) {
	p := newPlot("t", "x", "y")
	for _, size := range []vg.Length{p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size, p.Legend.TextStyle.Font.Size} {
		if size < vg.Points(10) {
			t.Errorf("font size %v pt, want >= 10 pt", size.Points())
		}
	}
}

// The band is the order-statistic CI of the median: for 12 seeds holding 1..12 it is
// [x_(3), x_(10)] = [3, 10].
func TestBandIsTheMediansCI(t *testing.T) {
	series := map[int][]point{}
	for s := 1; s <= 12; s++ {
		series[s] = []point{{0, float64(13 - s)}}
	}
	b := summarise(series)
	if b.Median[0] != 6.5 || b.Lo[0] != 3 || b.Hi[0] != 10 || b.Seeds != 12 {
		t.Fatalf("median %v, band [%v, %v], seeds %d; want 6.5, [3, 10], 12", b.Median[0], b.Lo[0], b.Hi[0], b.Seeds)
	}
}

func TestSummariseSteps(t *testing.T) {
	// Seed 1 reports at x = 0, 2, 4; seed 2 at x = 1, 3; seed 3 at x = 1, 4.
	b := summarise(map[int][]point{
		1: {{0, 10}, {2, 6}, {4, 2}},
		2: {{1, 9}, {3, 5}},
		3: {{1, 8}, {4, 1}},
	})
	// The grid starts where every seed has reported (x = 1).
	wantX := []float64{1, 2, 3, 4}
	// At x = 3: seed 1 holds 6 (from x = 2), seed 2 holds 5, seed 3 holds 8.
	wantMed := []float64{9, 8, 6, 2}
	if len(b.X) != len(wantX) {
		t.Fatalf("grid %v, want %v", b.X, wantX)
	}
	for i := range wantX {
		if b.X[i] != wantX[i] || b.Median[i] != wantMed[i] {
			t.Errorf("x=%v: median %v, want %v at %v", b.X[i], b.Median[i], wantMed[i], wantX[i])
		}
		if !(b.Lo[i] <= b.Median[i] && b.Median[i] <= b.Hi[i]) {
			t.Errorf("x=%v: CI %v, median %v, %v out of order", b.X[i], b.Lo[i], b.Median[i], b.Hi[i])
		}
	}
}

// With fstar.csv beside the CSVs, a figure whose every setting has f* also gets a
// suboptimality variant NAME-gap on a log axis; one with a setting lacking f* does not.
func TestGapVariant(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	smallInputs(t, in)
	writeCSV(t, in, "fstar", []records.FStar{
		{Task: "grouplasso", Data: "synthetic", D: 2, NUsers: 10, FStar: 0.05, ThetaSource: "test"},
		{Task: "grouplasso", Data: "synthetic", D: 10, NUsers: 10, FStar: 0.06, ThetaSource: "test"},
		{Task: "gpreg", Data: "synthetic", D: 2, NUsers: 10, FStar: 0.01, ThetaSource: "test"}, // fig2a's d = 5 has none
	})
	files, err := RenderDir(in, out, []string{"fig1", "fig2a"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range files {
		got[filepath.Base(f)] = true
	}
	if !got["fig1-gap.png"] || !got["fig1-gap.svg"] || !got["fig1-gap.pdf"] {
		t.Fatalf("files %v: want fig1-gap in every format", files)
	}
	if got["fig2a-gap.png"] {
		t.Fatal("fig2a-gap drawn although d = 5 has no f*")
	}
	svg, _ := os.ReadFile(filepath.Join(out, "fig1-gap.svg"))
	if !strings.Contains(string(svg), "gap to the best-known optimum f*") {
		t.Fatal("fig1-gap.svg does not say it shows the gap to f*")
	}
	rows := []records.Row{{Task: "grouplasso", Data: "synthetic", D: 2, NUsers: 10, Loss: 0.30}, {Task: "grouplasso", Data: "synthetic", D: 2, NUsers: 10, Loss: 0.05}}
	stars := map[starKey]float64{{"grouplasso", "synthetic", 2, 10, 0}: 0.05}
	gap, ok := gapRows(rows, stars)
	if !ok || math.Abs(gap[0].Loss-0.25) > 1e-15 || gap[1].Loss != gapFloor || rows[0].Loss != 0.30 {
		t.Fatalf("gapRows: %v %v (input %v)", gap, ok, rows)
	}
}

func TestRenderDirAsWritesOnlyTheFormatsAsked(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	smallInputs(t, in)
	files, err := RenderDirAs(in, out, []string{"fig1"}, []string{"png"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".png") {
			t.Errorf("wrote %s, asked for PNG only", f)
		}
	}
	if len(files) == 0 {
		t.Fatal("wrote nothing")
	}
	if _, err := RenderDirAs(in, out, []string{"fig1"}, []string{"gif"}); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Fatalf("format gif: error %v, want one naming it", err)
	}
}

// A figure of one's own (a name this package has no drawing of, with its CSV in the
// directory) is drawn as the figures across d are: its PNG is there and has a panel per
// task and d.
func TestRenderFigureOfOnesOwn(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	writeCSV(t, in, "mine", traceRows("mine", "sphere", "synthetic", []int{2, 4}, []string{""}, []string{"random", "halving"}, 2, 4))
	files, err := RenderDirAs(in, out, []string{"mine"}, []string{"png"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || filepath.Base(files[0]) != "mine.png" {
		t.Fatalf("files %v, want mine.png", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Size() < 1000 {
		t.Errorf("mine.png: %v, %v", fi, err)
	}
}

// A figure of one's own with more curves per (task, d) than a panel can tell apart shares
// them among as many panels as it needs, whatever mu each run delivered (NaN included).
func TestCrowdedPanelSplits(t *testing.T) {
	var methods []string
	for i := range 20 {
		methods = append(methods, fmt.Sprintf("m%d", i))
	}
	var rows []records.Row
	for i, mu := range []float64{0.5, 1} {
		part := traceRows("crowd", "sphere", "synthetic", []int{2}, []string{fmt.Sprintf("mu=%g", mu)}, methods, 2, 3)
		for j := range part {
			part[j].Mu = mu + 0.01*float64(j%3)
			if i == 1 && j%2 == 0 {
				part[j].Mu = math.NaN()
			}
		}
		rows = append(rows, part...)
	}
	panels, err := drawAcrossD("crowd", rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 1 || len(panels[0]) != 2 || !strings.HasPrefix(panels[0][1].Title.Text, "sphere, d = 2, curves 21-40 of 40\n") {
		t.Fatalf("panels %v, want two of 20 curves each", panels)
	}
}
