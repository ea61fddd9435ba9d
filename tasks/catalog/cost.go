package catalog

import (
	"cmp"
	"fmt"
	"strings"

	"dpgibo/tasks/bowl"
	"dpgibo/tasks/gpreg"
	"dpgibo/tasks/grouplasso"
	"dpgibo/tasks/logreg"
	"dpgibo/tasks/ridge"
	"dpgibo/tasks/svr"
	"dpgibo/tasks/toy"
)

// Per-evaluation cost of each task: static metadata that lets the experiment runner
// estimate a run's wall time before it starts (go run ./experiments -plan). An evaluation is
// one call of Losses over every validation user. The constants are seconds per operation
// counted by each task's formula, fitted to the committed timings of the OpenBLAS build on
// one core of the reproduction machine (reproduction/timings-*.csv, eval_seconds / evals):
//
//	grouplasso  ISTA: evalGroupLasso * ISTAIters * NTrain * GroupSize * d
//	            (measured 4e-5, 1.7e-4 and 4.7e-4 s at d = 2, 10, 20, NTrain = 50)
//	gpreg       a Cholesky of the training kernel and the kernel entries of training and
//	            validation rows: evalGPCholesky * NTrain^3/3 + evalGPKernel * (NTrain+NVal) * NTrain
//	            (measured 2.6e-2 s at NTrain = NVal = 1000, 4.2e-3 s at 500, 2.2e-3 s at 350)
//	svr         the SMO solve over the training kernel and the prediction of every
//	            validation row, both with ARD distances over d-3 features:
//	            evalSVRTrain * NTrain^2 * d + evalSVRPredict32 * NVal * NTrain * d
//	            with float32 cross products (the default), fitted to the precision study's
//	            runs (measured 4.5e-3 s on the 583 x 98 real sample, 4.56e-2 s on the
//	            1000 x 9000 stand-in, d = 103, GOEXPERIMENT=simd); with float64 ones
//	            evalSVRPredict64, which adds the benchmark's float64 - float32 difference
//	            (BenchmarkLosses, 12.5 ms at C = 1) scaled by the suite's 1.6x over the
//	            benchmark: not fitted, no committed run uses it
//
// The pure-Go build (without the openblas tag) is not calibrated: its GP regression
// evaluations measured 1-2.7x these and varied from run to run.
const (
	evalGroupLasso   = 4e-10
	evalGPCholesky   = 5.5e-11
	evalGPKernel     = 3.85e-9
	evalSVRTrain     = 1.23e-10
	evalSVRPredict32 = 3.56e-11
	evalSVRPredict64 = 5.8e-11
)

func groupLassoEvalSeconds(s Spec) float64 {
	d := float64(orDefault(s.D, grouplasso.DefaultD))
	n := float64(orDefault(s.NTrain, grouplasso.DefaultNTrain))
	return evalGroupLasso * grouplasso.DefaultISTAIters * n * grouplasso.DefaultGroupSize * d
}

func gpregEvalSeconds(s Spec) float64 {
	nt := float64(orDefault(s.NTrain, gpreg.DefaultNTrain))
	nv := float64(orDefault(s.NVal, gpreg.DefaultNVal))
	return evalGPCholesky*nt*nt*nt/3 + evalGPKernel*(nt+nv)*nt
}

func svrEvalSeconds(s Spec) float64 {
	d := float64(orDefault(s.D, svr.DefaultP+3))
	nt := float64(orDefault(s.NTrain, svr.DefaultNTrain))
	nv := float64(orDefault(s.NVal, svr.DefaultNVal))
	precision, predict := s.Precision, evalSVRPredict32
	precision = cmp.Or(precision, svr.DefaultPredictPrecision)
	if precision == svr.PrecisionFloat64 {
		predict = evalSVRPredict64
	}
	return evalSVRTrain*nt*nt*d + predict*nv*nt*d
}

// bowlEvalSeconds and ridgeEvalSeconds (on the synthetic problem) are counts of operations
// times a rough constant (not fitted: these tasks have no committed timings).
func bowlEvalSeconds(s Spec) float64 {
	return 2e-9 * float64(orDefault(s.NVal, bowl.DefaultUsers)) * float64(orDefault(s.D, bowl.DefaultD))
}

// toyEvalSeconds: one exponential per user (not fitted).
func toyEvalSeconds(s Spec) float64 {
	return 2e-8 * float64(orDefault(s.NVal, toy.DefaultUsers))
}

// Ridge on the randhie table (p = 9 features, one penalty each): the Gram matrix is built
// once, so an evaluation is a 9 x 9 Cholesky solve, fixed, and the prediction of every
// validation user, linear in NVal * p. Measured with go test -bench -cpu 1 (Losses at 64
// uniform thetas of the box, seed 1) on this project's development machine, a 2-core AMD
// EPYC (family 25, model 17), in the OpenBLAS build with one thread: 7.8, 17.8 and 59.7
// microseconds at NVal = 500, 2000 (the default) and 8000, NTrain = 1000 (pure Go: 6.7,
// 15.6 and 51.9); the constants are the line through 500 and 8000. The other tables
// (grunfeld, 14 features; engel, 6) take the same formula with their own features and
// default NVal, not measured.
const (
	evalRidgeTableFixed = 4.3e-6
	evalRidgeTableUser  = 7.7e-10 // per validation user and feature
)

func ridgeEvalSeconds(s Spec) float64 {
	if table, err := ridge.Table(s.Data); err == nil {
		nv := float64(orDefault(s.NVal, table.NVal))
		return evalRidgeTableFixed + evalRidgeTableUser*nv*float64(table.Features)
	}
	p := float64(orDefault(s.D, ridge.DefaultD) * ridge.DefaultGroupSize)
	nv := float64(orDefault(s.NVal, ridge.DefaultNVal))
	return 1e-9*(p*p*p/3+nv*p) + 2e-6
}

// logregEvalSeconds counts Newton's iterations (about 8), each building a p^2 system of
// the p = features + 1 coefficients over the training rows, then the validation
// predictions, on the table Spec.Data names (an unknown one costs as the default, which
// catalog.New rejects anyway). Not fitted: no committed timings; per evaluation at random
// theta, 2, 0.26 and 25 ms measured in the pure-Go build on breast-cancer (p = 31, 285
// training rows), wine (p = 14, 89) and digits (p = 65, 899), against 4.4, 0.28 and 61 ms
// of the formula; on anes96 (p = 10, 472 training rows, 472 validation users) 0.59 ms,
// against 0.76 ms of the formula (go test -bench -cpu 1, Losses at 64 uniform thetas of
// the box, seed 1, on a 2-core AMD EPYC, family 25, model 17; the same in the pure-Go and
// the OpenBLAS build, where breast-cancer and wine measured 2.0 and 0.25 ms). On the
// synthetic problem the features are Spec.D (default 10).
func logregEvalSeconds(s Spec) float64 {
	table, err := logreg.Table(s.Data)
	if err != nil {
		table, _ = logreg.Table("")
	}
	features := table.Features
	if table.MinD < table.MaxD {
		features = orDefault(s.D, table.D)
	}
	p := float64(features + 1)
	nt := float64(orDefault(s.NTrain, table.NTrain))
	nv := float64(orDefault(s.NVal, table.NVal))
	return 2e-9*8*nt*p*p + 1e-9*nv*p
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// EvalSeconds estimates the wall time in seconds of one evaluation of the task spec
// describes (Losses over every user) on one core with the OpenBLAS build. It builds no
// task and reads no data. An unknown name is an error listing the known ones.
func EvalSeconds(spec Spec) (float64, error) {
	e, ok := entries[spec.Name]
	if !ok {
		return 0, fmt.Errorf("catalog: unknown task %q (known: %s)", spec.Name, strings.Join(Names(), ", "))
	}
	return e.evalSeconds(spec), nil
}
