package records

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRowRoundTrip(t *testing.T) {
	rows := []Row{
		{Suite: "paper", Figure: "fig1", Task: "grouplasso", Data: "synthetic", Method: "gibo", D: 10, NUsers: 150,
			NTrain: 50, Mu: math.Inf(1), Clip: 0.1, Step: 1, Iters: 20, Batch: 11, Budget: 220, Seed: 3, Iter: 7,
			Evals: 77, Loss: 0.1 + 0.2, DPEpsilon: math.Inf(1)},
		{Suite: "paper", Figure: "fig3c", Config: "mu=0.1", Task: "gpreg", Data: "synthetic", Method: "dpgibo",
			Private: true, D: 15, NUsers: 350, Mu: 0.1, NoiseStd: 0.05, EvalNoise: 1e-4, BiasTol: 0.5, Clip: 3,
			Step: 0.3, Iters: 25, Batch: 64, Budget: 1600, Seed: 10, Iter: 25, Evals: 1234,
			Loss: 1.2345678901234567e-7, DPEpsilon: 0.3512345678,
			GradNorm: Some(0.1 + 0.2), NoiseNorm: Some(2.5e-9), ClippedFrac: Some(0), NoiseScale: Some(math.Inf(1))},
		{Suite: "paper", Figure: "fig2b", Config: `a,"b"`, Task: "svr", Data: "ctslice-synthetic", Method: "random",
			D: 103, Loss: math.MaxFloat64, DPEpsilon: math.SmallestNonzeroFloat64},
	}
	b, err := Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unmarshal[Row](bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows, back) {
		t.Fatalf("round trip changed rows:\n%+v\n%+v", rows, back)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, again) {
		t.Fatalf("second write differs:\n%s\n%s", b, again)
	}
	header := strings.SplitN(string(b), "\n", 2)[0]
	for _, col := range []string{"suite", "figure", "task", "data", "method", "private", "d", "n_users", "mu",
		"noise_std", "bias_tol", "clip", "step", "batch", "seed", "iter", "evals", "loss", "dp_epsilon",
		"grad_norm", "noise_norm", "clipped_frac", "noise_scale", "trials_nonprivate"} {
		if !strings.Contains(","+header+",", ","+col+",") {
			t.Errorf("header lacks column %q: %s", col, header)
		}
	}
	if !strings.Contains(string(b), "+Inf") {
		t.Error("mu = +Inf is not written as +Inf")
	}
	// The diagnostics come last, in this order, then a selection's non-private number of
	// trials, all empty cells when absent.
	if !strings.HasSuffix(header, ",dp_epsilon,grad_norm,noise_norm,clipped_frac,noise_scale,trials_nonprivate") {
		t.Errorf("diagnostic columns not last, in order: %s", header)
	}
	lines := strings.Split(string(b), "\n")
	if !strings.HasSuffix(lines[1], ",+Inf,,,,,") {
		t.Errorf("row without diagnostics does not end in empty cells: %s", lines[1])
	}
	if !strings.HasSuffix(lines[2], ",0.3,0.0000000025,0,+Inf,") {
		t.Errorf("diagnostics written as %s", lines[2])
	}
	if _, err := Unmarshal[Row](strings.NewReader(header + "\n" + strings.Replace(lines[2], "0.0000000025", "x", 1) + "\n")); err == nil {
		t.Error("a non-numeric noise_norm was read without error")
	}
}

func TestThetaAndTimingRoundTrip(t *testing.T) {
	theta := []ThetaRow{{Suite: "quick", Figure: "fig3f", Task: "svr", Data: "ctslice", Method: "dpgibo", Private: true,
		Mu: 0.2, D: 103, Seed: 1, Iter: 4, Evals: 416, Coord: 101, Name: "log C", Value: -1.25}}
	timing := []Timing{{Figures: "fig2b;fig3f", Cell: "svr-d103-dpgibo-s1-0123456789ab", Task: "svr", Data: "ctslice",
		Method: "dpgibo", D: 103, Seed: 1, Evals: 1040, SetupSeconds: 1.5, DesignSeconds: 2.25, EvalSeconds: 300.125,
		ReportSeconds: 3, TotalSeconds: 306.875}}
	dir := t.TempDir()
	for name, data := range map[string]func() ([]byte, error){
		"theta.csv":  func() ([]byte, error) { return Marshal(theta) },
		"timing.csv": func() ([]byte, error) { return Marshal(timing) },
	} {
		b, err := data()
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(dir, name), b); err != nil {
			t.Fatal(err)
		}
	}
	gotTheta, err := ReadFile[ThetaRow](filepath.Join(dir, "theta.csv"))
	if err != nil || !reflect.DeepEqual(gotTheta, theta) {
		t.Errorf("theta round trip: %v %+v", err, gotTheta)
	}
	gotTiming, err := ReadFile[Timing](filepath.Join(dir, "timing.csv"))
	if err != nil || !reflect.DeepEqual(gotTiming, timing) {
		t.Errorf("timing round trip: %v %+v", err, gotTiming)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile[Row](filepath.Join(dir, "absent.csv")); err == nil {
		t.Error("missing file: no error")
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("suite,d\npaper,notanumber\n"), 0o644)
	_, err := ReadFile[Timing](bad)
	if err == nil || err.Error() != bad+`: line 2, column d: "notanumber" is not an integer` {
		t.Errorf("non-numeric d: want an error naming the file, line and column, got %v", err)
	}
}

func TestWriteFileAtomicLeavesNoTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	for _, content := range []string{"first\n", "second, longer\n"} {
		if err := WriteFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only out.csv", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x.csv"), nil); err == nil {
		t.Error("writing into a missing directory: no error")
	}
}
