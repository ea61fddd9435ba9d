package ridge

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"dpgibo/data"
	"dpgibo/tasks"
)

// The fitted coefficients solve the penalised normal equations, the losses are the clipped
// squared errors, and the penalties matter: a moderate one beats both extremes of the box.
func TestRidgeFitAndLosses(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, n := task.Dim(), task.Users()
	mean := func(theta []float64) float64 {
		dst := make([]float64, n)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range dst {
			if v < 0 || v > task.LossBound() {
				t.Fatalf("loss %v outside [0, %v]", v, task.LossBound())
			}
			s += v
		}
		return s / float64(n)
	}
	theta := make([]float64, d)
	for g := range theta {
		theta[g] = -1 + 0.5*float64(g)
	}
	mean(theta)
	// (X^T X + diag(lambda)) beta = X^T y.
	p := d * task.cfg.GroupSize
	lhs := mat.NewVecDense(p, nil)
	lhs.MulVec(task.gram, task.beta)
	for j := 0; j < p; j++ {
		lhs.SetVec(j, lhs.AtVec(j)+math.Exp(theta[j/task.cfg.GroupSize])*task.beta.AtVec(j))
	}
	for j := 0; j < p; j++ {
		if math.Abs(lhs.AtVec(j)-task.xty.AtVec(j)) > 1e-9*(1+math.Abs(task.xty.AtVec(j))) {
			t.Fatalf("normal equation %d: %v vs %v", j, lhs.AtVec(j), task.xty.AtVec(j))
		}
	}
	all := func(v float64) []float64 {
		out := make([]float64, d)
		for g := range out {
			out[g] = v
		}
		return out
	}
	lowest, highest, mid := mean(all(thetaLo)), mean(all(thetaHi)), math.Inf(1)
	for v := thetaLo; v <= thetaHi; v += 0.5 {
		mid = math.Min(mid, mean(all(v)))
	}
	if !(mid < lowest && mid < highest) {
		t.Errorf("a common penalty inside the box (%.4f) should beat both ends (%.4f, %.4f)", mid, lowest, highest)
	}
	if _, err := New(Config{Informative: 9}); err == nil {
		t.Error("more informative groups than groups accepted")
	}
}

// On randhie the task has one penalty per feature, 2000 validation users and the bound 4;
// the training features are standardised, and every target is log(1 + visits) less the
// training mean, which centres the training targets.
func TestRANDHIEProblem(t *testing.T) {
	task, err := New(Config{Table: "randhie", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	nt, p := train.X.Dims()
	nv, pv := val.X.Dims()
	lo, hi := task.Bounds()
	if task.Dim() != 9 || task.Users() != 2000 || task.LossBound() != 4 || task.DataLabel() != "randhie" || task.Name() != Name ||
		nt != 1000 || p != 9 || nv != 2000 || pv != 9 || len(lo) != 9 || lo[0] != thetaLo || hi[8] != thetaHi {
		t.Fatalf("d %d, users %d, bound %v, label %q, train %d x %d, val %d x %d, box %v %v",
			task.Dim(), task.Users(), task.LossBound(), task.DataLabel(), nt, p, nv, pv, lo, hi)
	}
	for j := range p {
		mean, sd := stat.MeanStdDev(mat.Col(nil, j, train.X), nil)
		if math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("training feature %d: mean %v, standard deviation %v", j, mean, sd)
		}
	}
	if m := stat.Mean(train.Y, nil); math.Abs(m) > 1e-12 || !(task.yMean > 0) {
		t.Errorf("training targets' mean %v, the mean subtracted %v", m, task.yMean)
	}
	for i, y := range append(slices.Clone(train.Y), val.Y...) {
		visits := math.Expm1(y + task.yMean)
		if k := math.Round(visits); math.Abs(visits-k) > 1e-9 || k < 0 {
			t.Fatalf("target %d is log(1 + %v), not of a count of visits", i, visits)
		}
	}
	synthetic, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if synthetic.DataLabel() != syntheticLabel || synthetic.yMean != 0 {
		t.Errorf("synthetic problem: label %q, target shift %v", synthetic.DataLabel(), synthetic.yMean)
	}
}

// On randhie the fit solves the penalised normal equations, equals the fit of the
// uncentred target with an unpenalised intercept, and the losses are the clipped squared
// errors of that fit.
func TestRANDHIEClosedForm(t *testing.T) {
	task, err := New(Config{Table: "randhie", Seed: 2, NTrain: 300, NVal: 500})
	if err != nil {
		t.Fatal(err)
	}
	theta := []float64{-3, -1, 0, 2, thetaLo, thetaHi, 1, -2, 0.5}
	dst := make([]float64, task.Users())
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	n, p := train.X.Dims()
	// (X^T X + diag(lambda)) beta = X^T y
	lhs := mat.NewVecDense(p, nil)
	lhs.MulVec(task.gram, task.beta)
	for j := range p {
		if got, want := lhs.AtVec(j)+math.Exp(theta[j])*task.beta.AtVec(j), task.xty.AtVec(j); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("normal equation %d: %v vs %v", j, got, want)
		}
	}
	// The same fit with an intercept column (last, unpenalised) and the uncentred target.
	aug := mat.NewDense(n, p+1, nil)
	y := make([]float64, n)
	for i := range n {
		copy(aug.RawRowView(i), train.X.RawRowView(i))
		aug.Set(i, p, 1)
		y[i] = train.Y[i] + task.yMean
	}
	a := mat.NewSymDense(p+1, nil)
	a.SymOuterK(1, aug.T())
	for j := range p {
		a.SetSym(j, j, a.At(j, j)+math.Exp(theta[j]))
	}
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		t.Fatal("the system with an intercept is not positive definite")
	}
	rhs, w := mat.NewVecDense(p+1, nil), mat.NewVecDense(p+1, nil)
	rhs.MulVec(aug.T(), mat.NewVecDense(n, y))
	if err := chol.SolveVecTo(w, rhs); err != nil {
		t.Fatal(err)
	}
	for j := range p {
		if math.Abs(w.AtVec(j)-task.beta.AtVec(j)) > 1e-9 {
			t.Errorf("coefficient %d: %v with an intercept, %v centred", j, w.AtVec(j), task.beta.AtVec(j))
		}
	}
	if math.Abs(w.AtVec(p)-task.yMean) > 1e-9 {
		t.Errorf("intercept %v, want the training mean %v", w.AtVec(p), task.yMean)
	}
	for i := range dst {
		pred := w.AtVec(p) + mat.Dot(val.X.RowView(i), w.SliceVec(0, p))
		r := val.Y[i] + task.yMean - pred
		if want := math.Min(r*r, task.LossBound()); math.Abs(dst[i]-want) > 1e-9 || dst[i] < 0 || dst[i] > task.LossBound() {
			t.Fatalf("user %d: loss %v, want %v", i, dst[i], want)
		}
	}
	for _, v := range []float64{thetaLo, thetaHi} {
		corner := make([]float64, task.Dim())
		for j := range corner {
			corner[j] = v
		}
		if err := task.Losses(corner, dst); err != nil {
			t.Errorf("theta all %v: %v", v, err)
		}
	}
}

// The seed splits randhie's rows: the same seed gives the same split and losses, another
// seed another split.
func TestRANDHIESeeds(t *testing.T) {
	split := func(seed uint64) (*Task, []float64) {
		task, err := New(Config{Table: "randhie", Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, task.Users())
		if err := task.Losses(make([]float64, task.Dim()), dst); err != nil {
			t.Fatal(err)
		}
		return task, dst
	}
	a, la := split(3)
	b, lb := split(3)
	c, _ := split(4)
	ta, va := a.Data()
	tb, vb := b.Data()
	tc, vc := c.Data()
	if !mat.Equal(ta.X, tb.X) || !mat.Equal(va.X, vb.X) || !slices.Equal(va.Y, vb.Y) || !slices.Equal(la, lb) {
		t.Error("the same seed gave different splits or losses")
	}
	if mat.Equal(ta.X, tc.X) || slices.Equal(va.Y, vc.Y) {
		t.Error("seeds 3 and 4 gave the same split")
	}
}

// A table setting that does not fit is an error naming it.
func TestRANDHIEConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Table: "iris"}, `"iris"`},
		{Config{Table: "randhie", Informative: 2}, "Informative"},
		{Config{Table: "randhie", Rho: 0.5}, "Rho"},
		{Config{Table: "randhie", D: 6}, "D = 6"},
		{Config{Table: "randhie", GroupSize: 2}, "GroupSize 2"},
		{Config{Table: "randhie", NTrain: 20000, NVal: 1000}, "20190 rows"},
		{Config{Table: "randhie", LossBound: math.Inf(1)}, "LossBound"},
	} {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %s", tc.cfg, err, tc.want)
		}
	}
	if _, err := New(Config{Table: "iris"}); err == nil || !strings.Contains(err.Error(), `"randhie"`) {
		t.Errorf("an unknown table: %v, want an error listing %q", err, "randhie")
	}
}

// The tables come in the order they were added, and Table describes each; the synthetic
// problem is not a table.
func TestTablesList(t *testing.T) {
	if got, want := Tables(), []string{"randhie", "grunfeld", "engel"}; !slices.Equal(got, want) {
		t.Errorf("Tables() = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		label       string
		features, d int
		nval        int
	}{{"randhie", 9, 9, 2000}, {"grunfeld", 14, 4, 110}, {"engel", 6, 6, 118}} {
		info, err := Table(tc.label)
		if err != nil || info.Label != tc.label || info.Features != tc.features || info.D != tc.d || info.NVal != tc.nval || info.Groups == "" {
			t.Errorf("Table(%q) = %+v, %v", tc.label, info, err)
		}
	}
	for _, label := range []string{"", "iris"} {
		if _, err := Table(label); err == nil || !strings.Contains(err.Error(), `"engel"`) {
			t.Errorf("Table(%q): error %v, want one listing the tables", label, err)
		}
	}
}

// On grunfeld and engel the task has the table's d, default split, bound and box; the
// training features are standardised and the training targets centred; the fit solves the
// penalised normal equations with each feature's group penalty; the losses are clipped
// squared errors; and the same seed gives the same split, another seed another.
func TestGrunfeldAndEngel(t *testing.T) {
	for _, tc := range []struct {
		table        string
		d, p, nt, nv int
		bound        float64
		group        []int
	}{
		{"grunfeld", 4, 14, 110, 110, 4, []int{0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
		{"engel", 6, 6, 117, 118, 1, []int{0, 1, 2, 3, 4, 5}},
	} {
		task, err := New(Config{Table: tc.table, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		train, val := task.Data()
		nt, p := train.X.Dims()
		nv, _ := val.X.Dims()
		lo, hi := task.Bounds()
		if task.Dim() != tc.d || task.Users() != tc.nv || task.LossBound() != tc.bound || task.DataLabel() != tc.table ||
			nt != tc.nt || p != tc.p || nv != tc.nv || len(lo) != tc.d || lo[0] != thetaLo || hi[tc.d-1] != thetaHi ||
			!slices.Equal(task.group, tc.group) {
			t.Fatalf("%s: d %d, users %d, bound %v, label %q, train %d x %d, val %d, box %v %v, groups %v", tc.table,
				task.Dim(), task.Users(), task.LossBound(), task.DataLabel(), nt, p, nv, lo, hi, task.group)
		}
		for j := range p {
			mean, sd := stat.MeanStdDev(mat.Col(nil, j, train.X), nil)
			if math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
				t.Errorf("%s: training feature %d: mean %v, standard deviation %v", tc.table, j, mean, sd)
			}
		}
		if m := stat.Mean(train.Y, nil); math.Abs(m) > 1e-12 {
			t.Errorf("%s: training targets' mean %v", tc.table, m)
		}
		theta := make([]float64, tc.d)
		for g := range theta {
			theta[g] = -3 + float64(g)
		}
		dst := make([]float64, nv)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		lhs := mat.NewVecDense(p, nil)
		lhs.MulVec(task.gram, task.beta)
		for j := range p {
			if got, want := lhs.AtVec(j)+math.Exp(theta[tc.group[j]])*task.beta.AtVec(j), task.xty.AtVec(j); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("%s: normal equation %d: %v vs %v", tc.table, j, got, want)
			}
		}
		for i := range dst {
			r := val.Y[i] - mat.Dot(val.X.RowView(i), task.beta)
			if want := math.Min(r*r, tc.bound); math.Abs(dst[i]-want) > 1e-12 {
				t.Fatalf("%s: user %d: loss %v, want %v", tc.table, i, dst[i], want)
			}
		}
		for _, v := range []float64{thetaLo, thetaHi} {
			corner := make([]float64, tc.d)
			for g := range corner {
				corner[g] = v
			}
			if err := task.Losses(corner, dst); err != nil {
				t.Errorf("%s: theta all %v: %v", tc.table, v, err)
			}
		}
		again, _ := New(Config{Table: tc.table, Seed: 1})
		other, _ := New(Config{Table: tc.table, Seed: 2})
		ta, va := again.Data()
		to, _ := other.Data()
		if !mat.Equal(ta.X, train.X) || !mat.Equal(va.X, val.X) || !slices.Equal(va.Y, val.Y) || mat.Equal(to.X, train.X) {
			t.Errorf("%s: the same seed gave another split, or seeds 1 and 2 the same", tc.table)
		}
		for _, bad := range []Config{
			{Table: tc.table, D: tc.d + 1},
			{Table: tc.table, GroupSize: 2},
			{Table: tc.table, NoiseStd: 1},
			{Table: tc.table, NTrain: tc.nt, NVal: tc.nv + 1},
		} {
			if _, err := New(bad); err == nil || !strings.Contains(err.Error(), tc.table) {
				t.Errorf("%+v: error %v, want one naming the table", bad, err)
			}
		}
	}
	if _, err := New(Config{Table: "grunfeld", GroupSize: 1}); err == nil || !strings.Contains(err.Error(), "GroupSize must be 0") {
		t.Errorf("grunfeld with GroupSize 1: %v", err)
	}
}

// On grunfeld every target is the log of a firm-year's investment in the file, and each row
// has exactly one firm indicator set (positive once standardised, the others negative).
func TestGrunfeldColumns(t *testing.T) {
	task, err := New(Config{Table: "grunfeld", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, invest, err := data.Grunfeld()
	if err != nil {
		t.Fatal(err)
	}
	logs := make([]float64, len(invest))
	for i, v := range invest {
		logs[i] = math.Log(v)
	}
	train, val := task.Data()
	for _, d := range []tasks.Dataset{train, val} {
		for i, y := range d.Y {
			if !slices.ContainsFunc(logs, func(l float64) bool { return math.Abs(l-(y+task.yMean)) < 1e-12 }) {
				t.Fatalf("target %v + %v is not the log of an investment in the file", y, task.yMean)
			}
			set := 0
			for j := 3; j < 14; j++ {
				if d.X.At(i, j) > 0 {
					set++
				}
			}
			if set != 1 {
				t.Fatalf("a row with %d firm indicators set", set)
			}
		}
	}
}

// On engel the first feature is z, the log income standardised by the training rows, and
// feature k (from 0) z^(k+1) standardised by the training rows, the same map in both
// splits; the target is the log food expenditure.
func TestEngelPowers(t *testing.T) {
	task, err := New(Config{Table: "engel", Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	n := len(train.Y)
	for k := 1; k < 6; k++ {
		pow := make([]float64, n)
		for i := range n {
			pow[i] = math.Pow(train.X.At(i, 0), float64(k+1))
		}
		mean, sd := stat.MeanStdDev(pow, nil)
		for _, d := range []tasks.Dataset{train, val} {
			for i := range len(d.Y) {
				if want := (math.Pow(d.X.At(i, 0), float64(k+1)) - mean) / sd; math.Abs(d.X.At(i, k)-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("power %d, row %d: %v, want %v", k+1, i, d.X.At(i, k), want)
				}
			}
		}
	}
	// The split draws rows order[:117] and order[117:235] of the file; z is their log
	// income standardised by the training rows, and the target their log food expenditure.
	income, food, err := data.Engel()
	if err != nil {
		t.Fatal(err)
	}
	order := rand.New(rand.NewPCG(4, tables[2].stream)).Perm(235)
	logIncome := make([]float64, n)
	for i := range n {
		logIncome[i] = math.Log(income.At(order[i], 0))
	}
	mean, sd := stat.MeanStdDev(logIncome, nil)
	for s, d := range []tasks.Dataset{train, val} {
		for i := range len(d.Y) {
			r := order[s*n+i]
			if z := (math.Log(income.At(r, 0)) - mean) / sd; math.Abs(d.X.At(i, 0)-z) > 1e-12 || math.Abs(d.Y[i]+task.yMean-math.Log(food[r])) > 1e-12 {
				t.Fatalf("split %d, row %d: z %v and target %v, want %v and %v", s, i, d.X.At(i, 0), d.Y[i]+task.yMean, z, math.Log(food[r]))
			}
		}
	}
}
