package svr

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"dpgibo/internal/blasinfo"
	"dpgibo/internal/fastexp"
)

// benchTheta is the point of the benchmark: every length-scale 1, epsilon 0.1, gamma 0.1
// and the given C.
func benchTheta(task *Task, C float64) []float64 {
	p := task.Config().P
	theta := make([]float64, p+3)
	theta[p] = math.Log(0.1)
	theta[p+1] = math.Log(C)
	theta[p+2] = math.Log(0.1)
	return theta
}

// BenchmarkLosses is one evaluation of the paper's setting (n_train = 1000, p = 100,
// n_val = 9000) on the stand-in, at C = 1 and C = 3, with each precision of the
// prediction's cross products: fit (kernel matrix, SMO) and prediction of every validation
// user. It runs on one core (OpenBLAS is limited to one
// thread with -tags openblas) to compare with single-threaded libsvm; see
// testdata/compare_libsvm.py for the libsvm side.
func BenchmarkLosses(b *testing.B) {
	blasinfo.SetThreads(1)
	for _, prec := range []string{PrecisionFloat64, PrecisionFloat32} {
		task, err := New(Config{Standin: true, Seed: 1, PredictPrecision: prec})
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]float64, task.Users())
		for _, C := range []float64{1, 3} {
			b.Run(fmt.Sprintf("%s/C=%g/%s/exp=%s", prec, C, blasinfo.Backend(), fastexp.Vectorised()), func(b *testing.B) {
				theta := benchTheta(task, C)
				cpu0 := processCPU()
				for b.Loop() {
					if err := task.Losses(theta, dst); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
				mse := 0.0
				for _, v := range dst {
					mse += v
				}
				b.ReportMetric(mse/float64(len(dst)), "valMSE")
				b.ReportMetric(float64(task.model.SupportVectors()), "SVs")
				b.ReportMetric(float64(task.model.Iterations()), "SMOiters")
			})
		}
	}
}

// processCPU returns the user and system CPU time of the process so far, in nanoseconds:
// on a machine shared with other work it measures the cost of an evaluation better than
// the wall time.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestDumpBenchmarkProblem writes the benchmark's data and hyperparameters for
// testdata/compare_libsvm.py when $SVR_BENCH_DUMP names a directory, with this package's
// MSE at the precision $SVR_BENCH_PRECISION (default DefaultPredictPrecision):
//
//	SVR_BENCH_DUMP=/tmp/svrbench go test ./tasks/svr -run TestDumpBenchmarkProblem
//	python3 tasks/svr/testdata/compare_libsvm.py /tmp/svrbench
func TestDumpBenchmarkProblem(t *testing.T) {
	dir := os.Getenv("SVR_BENCH_DUMP")
	if dir == "" {
		t.Skip("set SVR_BENCH_DUMP to a directory to write the benchmark problem")
	}
	task, err := New(Config{Standin: true, Seed: 1, PredictPrecision: os.Getenv("SVR_BENCH_PRECISION")})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	for name, ds := range map[string]struct {
		x interface{ RawRowView(int) []float64 }
		y []float64
	}{"train.csv": {train.X, train.Y}, "val.csv": {val.X, val.Y}} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		for i, y := range ds.y {
			for _, v := range ds.x.RawRowView(i) {
				w.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
			}
			w.WriteString(strconv.FormatFloat(y, 'g', -1, 64) + "\n")
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// One line per benchmark point: length-scales, epsilon, C, gamma, this package's MSE.
	f, err := os.Create(filepath.Join(dir, "hyper.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dst := make([]float64, task.Users())
	for _, C := range []float64{1, 3} {
		theta := benchTheta(task, C)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		mse := 0.0
		for _, v := range dst {
			mse += v
		}
		h := task.Hyper(theta)
		for _, l := range h.Lengthscales {
			fmt.Fprintf(f, "%s,", strconv.FormatFloat(l, 'g', -1, 64))
		}
		fmt.Fprintf(f, "%s,%s,%s,%s\n", strconv.FormatFloat(h.Epsilon, 'g', -1, 64), strconv.FormatFloat(h.C, 'g', -1, 64),
			strconv.FormatFloat(h.Gamma, 'g', -1, 64), strconv.FormatFloat(mse/float64(len(dst)), 'g', -1, 64))
	}
}
