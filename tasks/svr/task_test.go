package svr

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dpgibo/data"
	"dpgibo/tasks"
)

// A Task is a tasks.Task.
var _ tasks.Task = (*Task)(nil)

// small is a fast configuration on the stand-in.
func small(seed uint64) Config {
	return Config{NTrain: 150, NVal: 200, P: 12, Seed: seed, Standin: true}
}

func centre(t *Task) []float64 {
	lo, hi := t.Bounds()
	theta := make([]float64, len(lo))
	for j := range theta {
		theta[j] = (lo[j] + hi[j]) / 2
	}
	return theta
}

func TestTaskShapeAndBox(t *testing.T) {
	task, err := New(small(1))
	if err != nil {
		t.Fatal(err)
	}
	if task.Dim() != 15 || task.Users() != 200 || task.Name() != "svr" {
		t.Fatalf("Dim %d Users %d Name %q", task.Dim(), task.Users(), task.Name())
	}
	lo, hi := task.Bounds()
	p := 12
	for j := 0; j < p; j++ {
		if lo[j] != -2 || hi[j] != 2 {
			t.Errorf("log l_%d box [%v, %v], want [-2, 2]", j, lo[j], hi[j])
		}
	}
	for k, want := range [][2]float64{{0.01, 1}, {0.1, 3}, {0.01, 5}} {
		if math.Abs(math.Exp(lo[p+k])-want[0]) > 1e-12 || math.Abs(math.Exp(hi[p+k])-want[1]) > 1e-12 {
			t.Errorf("box of coordinate %d = exp[%v, %v], want [%v, %v]", p+k, lo[p+k], hi[p+k], want[0], want[1])
		}
	}
	h := task.Hyper(hi)
	if math.Abs(h.Epsilon-1) > 1e-12 || math.Abs(h.C-3) > 1e-12 || math.Abs(h.Gamma-5) > 1e-12 || math.Abs(h.Lengthscales[0]-math.Exp(2)) > 1e-12 {
		t.Errorf("Hyper(hi) = %+v", h)
	}
}

func TestTaskDefaults(t *testing.T) {
	var c Config
	c.defaults(nil)
	if c.NTrain != 1000 || c.NVal != 9000 || c.P != 100 || c.LossBound != defaultLossBound ||
		c.PredictPrecision != DefaultPredictPrecision {
		t.Errorf("defaults %+v", c)
	}
}

func TestTaskDataAndStandardisation(t *testing.T) {
	task, err := New(small(2))
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	if r, c := train.X.Dims(); r != 150 || c != 12 {
		t.Fatalf("train X %dx%d", r, c)
	}
	if r, c := val.X.Dims(); r != 200 || c != 12 {
		t.Fatalf("val X %dx%d", r, c)
	}
	mean, ss := 0.0, 0.0
	for _, y := range train.Y {
		mean += y
	}
	mean /= 150
	for _, y := range train.Y {
		ss += (y - mean) * (y - mean)
	}
	if math.Abs(mean) > 1e-12 || math.Abs(ss/149-1) > 1e-12 {
		t.Errorf("standardised training target has mean %g and variance %g", mean, ss/149)
	}
	// Rows are disjoint and the features are distinct and ascending.
	tr, va := task.Rows()
	seen := map[int]bool{}
	for _, r := range append(append([]int(nil), tr...), va...) {
		if seen[r] {
			t.Fatalf("row %d drawn twice", r)
		}
		seen[r] = true
	}
	f := task.Features()
	for j := 1; j < len(f); j++ {
		if f[j] <= f[j-1] {
			t.Fatalf("features not distinct and ascending: %v", f)
		}
	}
	// The data match the stand-in's rows and features, with the target de-standardised.
	all := standin()
	m, sd := task.TargetScale()
	for i, r := range va[:5] {
		for j, fj := range f {
			if val.X.At(i, j) != all.X.At(r, fj) {
				t.Fatalf("val (%d, %d) is not stand-in (%d, %d)", i, j, r, fj)
			}
		}
		if math.Abs(m+sd*val.Y[i]-all.Y[r]) > 1e-9 {
			t.Fatalf("val target %d does not map back to the stand-in's", i)
		}
	}
	// Same seed, same draw; another seed, another draw.
	again, _ := New(small(2))
	other, _ := New(small(3))
	tr2, _ := again.Rows()
	tr3, _ := other.Rows()
	if tr2[0] != tr[0] || tr2[149] != tr[149] {
		t.Error("same seed drew other rows")
	}
	if tr3[0] == tr[0] && tr3[1] == tr[1] {
		t.Error("another seed drew the same rows")
	}
}

func TestTaskLosses(t *testing.T) {
	task, err := New(small(4))
	if err != nil {
		t.Fatal(err)
	}
	theta := centre(task)
	dst := make([]float64, task.Users())
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	// Against a separate SVR fitted on the task's data, with the task's precision.
	train, val := task.Data()
	s := SVR{SinglePrecisionPredict: task.Config().PredictPrecision == PrecisionFloat32}
	if err := s.Fit(train.X, train.Y, task.Hyper(theta)); err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, task.Users())
	if err := s.Predict(pred, val.X); err != nil {
		t.Fatal(err)
	}
	mse, base := 0.0, 0.0
	for i, f := range pred {
		want := (val.Y[i] - f) * (val.Y[i] - f)
		if dst[i] != want {
			t.Fatalf("loss of user %d = %v, want %v", i, dst[i], want)
		}
		mse += dst[i]
		base += val.Y[i] * val.Y[i]
	}
	if mse >= base {
		t.Errorf("validation MSE %g is no better than predicting the training mean (%g)", mse/200, base/200)
	}
	// Repeatable with reused buffers.
	again := make([]float64, task.Users())
	if err := task.Losses(theta, again); err != nil {
		t.Fatal(err)
	}
	for i := range dst {
		if again[i] != dst[i] {
			t.Fatal("a second evaluation at the same theta differs")
		}
	}
	// Outside the box and wrong lengths are errors.
	bad := append([]float64(nil), theta...)
	bad[0] = 2.5
	if err := task.Losses(bad, dst); err == nil {
		t.Error("theta outside the box: no error")
	}
	if err := task.Losses(theta[:3], dst); err == nil {
		t.Error("short theta: no error")
	}
	if err := task.Losses(theta, dst[:5]); err == nil {
		t.Error("short dst: no error")
	}
}

func TestStandinLabelAndWarning(t *testing.T) {
	// Nothing to find: empty working directory, no environment variable.
	t.Chdir(t.TempDir())
	t.Setenv(data.EnvVar, "")
	cfg := small(5)
	cfg.Standin = false
	task, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !task.Synthetic() || task.DataLabel() != "ctslice-synthetic" || task.DataPath().Path != "" {
		t.Fatalf("stand-in: Synthetic %v, DataLabel %q, path %q", task.Synthetic(), task.DataLabel(), task.DataPath().Path)
	}
	w := task.Warning()
	if strings.Contains(w, "\n") || !strings.Contains(w, fetchHint) || !strings.Contains(w, "ctslice-synthetic") || !strings.Contains(w, "not CT-slice results") {
		t.Errorf("warning line %q", w)
	}
	if fetchHint != "bash data/fetch.sh" {
		t.Errorf("fetchHint %q", fetchHint)
	}
}

// The task applies the lookup order: Config.Path before $DPGIBO_CTSLICE before
// data/ctslice/. The files found here are 100-row fixtures, which the task rejects for
// their row count; the error names the file that was chosen.
func TestTaskLookupOrder(t *testing.T) {
	fixture, err := filepath.Abs("../../data/testdata/ctslice-fixture.csv")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, data.DefaultDir), 0o755); err != nil {
		t.Fatal(err)
	}
	dirFile := filepath.Join(work, data.DefaultDir, data.CSVName)
	envFile := filepath.Join(t.TempDir(), "env.csv")
	flagFile := filepath.Join(t.TempDir(), "flag.csv")
	for _, p := range []string{dirFile, envFile, flagFile} {
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	cfg := small(6)
	cfg.Standin = false
	expect := func(wantFile string) {
		t.Helper()
		_, err := New(cfg)
		if err == nil || !strings.Contains(err.Error(), wantFile) || !strings.Contains(err.Error(), "want 53500") {
			t.Errorf("error %v, want the row-count error of %s", err, wantFile)
		}
	}
	t.Setenv(data.EnvVar, "")
	expect(data.CSVName)
	t.Setenv(data.EnvVar, envFile)
	expect(envFile)
	cfg.Path = flagFile
	expect(flagFile)
	// A forced stand-in ignores all of them.
	cfg.Standin = true
	task, err := New(cfg)
	if err != nil || task.DataLabel() != "ctslice-synthetic" || !strings.Contains(task.Warning(), "stand-in requested") {
		t.Errorf("forced stand-in: %v, %v", task, err)
	}
}

// A complete file in the UCI format is read through Config.Path and labelled "ctslice".
// Writing and parsing 53500 rows takes seconds, so it is skipped with -short.
func TestTaskRealFormatFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and parses a full-size CSV")
	}
	path := filepath.Join(t.TempDir(), data.CSVName)
	writeSixDigits(t, path, standin())
	cfg := small(7)
	cfg.Standin = false
	cfg.Path = path
	task, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if task.Synthetic() || task.DataLabel() != "ctslice" || task.Warning() != "" || task.DataPath().Path != path {
		t.Errorf("real file: Synthetic %v, DataLabel %q, Warning %q, path %q", task.Synthetic(), task.DataLabel(), task.Warning(), task.DataPath().Path)
	}
	// Same seed on the same numbers gives the same split as the stand-in task.
	ref, err := New(small(7))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := task.Data()
	b, _ := ref.Data()
	if math.Abs(a.Y[0]-b.Y[0]) > 1e-4 || math.Abs(a.X.At(3, 4)-b.X.At(3, 4)) > 1e-5 {
		t.Error("the file written from the stand-in gives other data than the stand-in")
	}
}

// writeSixDigits writes d as a UCI-format CSV with six significant digits (as the UCI file
// has), which is much faster to write and parse than data.WriteCSV's exact form.
func writeSixDigits(t *testing.T, path string, d *data.CTSlice) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(strings.Join(data.Header(), ",") + "\n")
	buf := make([]byte, 0, 8192)
	for i := 0; i < d.Rows(); i++ {
		buf = strconv.AppendInt(buf[:0], int64(d.PatientID[i]), 10)
		for _, v := range d.X.RawRowView(i) {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', 6, 64)
		}
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, d.Y[i], 'g', 6, 64)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, c := range map[string]Config{
		"P too large":     {P: 385, Standin: true},
		"too many rows":   {NTrain: 50000, NVal: 5000, Standin: true},
		"negative bound":  {LossBound: -1, Standin: true},
		"one train point": {NTrain: 1, Standin: true},
		"precision":       {PredictPrecision: "float16", Standin: true},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSampleSplitsByPatient(t *testing.T) {
	task, err := New(Config{Sample: true, P: 10, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if task.DataLabel() != data.SampleLabel || task.Synthetic() || task.Warning() != "" {
		t.Errorf("label %q, synthetic %v, warning %q", task.DataLabel(), task.Synthetic(), task.Warning())
	}
	if got := task.DataPath().Origin; got != data.OriginSample {
		t.Errorf("origin %q, want %q", got, data.OriginSample)
	}
	if task.Users() != 98 || task.Config().NTrain != 583 {
		t.Fatalf("%d users and %d training rows, want every slice of the two patients (98, 583)", task.Users(), task.Config().NTrain)
	}
	all, err := data.Sample()
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Rows()
	for _, r := range train {
		if all.PatientID[r] != data.SampleTrainPatient {
			t.Fatalf("training row %d is of patient %d", r, all.PatientID[r])
		}
	}
	for _, r := range val {
		if all.PatientID[r] != data.SampleValPatient {
			t.Fatalf("validation row %d is of patient %d", r, all.PatientID[r])
		}
	}
	losses := make([]float64, task.Users())
	if err := task.Losses(centre(task), losses); err != nil {
		t.Fatal(err)
	}

	sub, err := New(Config{Sample: true, P: 10, Seed: 3, NTrain: 40, NVal: 30})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Users() != 30 {
		t.Errorf("%d users, want 30", sub.Users())
	}
	for _, bad := range []Config{
		{Sample: true, NTrain: 584},
		{Sample: true, NVal: 99},
		{Sample: true, Standin: true},
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v) accepted a configuration the sample cannot serve", bad)
		}
	}
}
