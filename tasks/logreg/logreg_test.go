package logreg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"dpgibo/tasks"
)

func filled(v float64) []float64 {
	theta := make([]float64, features)
	for j := range theta {
		theta[j] = v
	}
	return theta
}

// The fit is the minimiser: the penalised objective's gradient vanishes there, and a small
// move of any coefficient raises the objective.
func TestFitIsTheMinimiser(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{-6, -1, 3} {
		theta := filled(v)
		theta[0], theta[7] = thetaLo, thetaHi
		checkFitMinimises(t, task, theta, fmt.Sprintf("breast cancer, theta %v", v))
	}
}

// checkFitMinimises fits task at theta and checks that a small move of any coefficient
// does not lower the penalised objective.
func checkFitMinimises(t *testing.T, task *Task, theta []float64, label string) {
	t.Helper()
	if err := task.fit(theta); err != nil {
		t.Fatal(err)
	}
	w := slices.Clone(task.w.RawVector().Data)
	best := task.objective(theta, w)
	for j := range w {
		for _, h := range []float64{-1e-4, 1e-4} {
			moved := slices.Clone(w)
			moved[j] += h
			if o := task.objective(theta, moved); o < best-1e-12 {
				t.Fatalf("%s: moving coefficient %d by %v lowers the objective from %v to %v", label, j, h, best, o)
			}
		}
	}
}

// Losses lie in [0, LossBound], repeat at the same theta and seed, and a moderate penalty
// fits the validation users better than the strongest; a few users carry most of the loss.
func TestLosses(t *testing.T) {
	task, err := New(Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	n := task.Users()
	if task.Dim() != 30 || n != defaultNVal || task.LossBound() != -math.Log(pMin) {
		t.Fatalf("d %d, users %d, bound %v", task.Dim(), n, task.LossBound())
	}
	mean := func(theta []float64) (float64, []float64) {
		dst := make([]float64, n)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range dst {
			if !(v >= 0 && v <= task.LossBound()) {
				t.Fatalf("a loss %v outside [0, %v]", v, task.LossBound())
			}
			s += v / float64(n)
		}
		return s, dst
	}
	moderate, losses := mean(filled(0))
	again, _ := mean(filled(0))
	strong, _ := mean(filled(thetaHi))
	if moderate != again {
		t.Errorf("the same theta gave mean losses %v and %v", moderate, again)
	}
	// The strongest penalty leaves about the intercept: near the log loss of the base rate.
	if !(moderate < 0.5*strong) || !(strong > 0.3 && strong < 0.7) {
		t.Errorf("mean validation loss %v at lambda = 1, %v at lambda = e^6", moderate, strong)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(losses)))
	top, total := 0.0, 0.0
	for i, v := range losses {
		if i < n/20 {
			top += v
		}
		total += v
	}
	if !(top > 0.5*total) {
		t.Errorf("the worst 5%% of users carry %.2f of the validation loss, want most of it", top/total)
	}
	if _, err := New(Config{NTrain: 400, NVal: 300}); err == nil {
		t.Error("a split of 700 rows of a 569-row table was accepted")
	}
}

// fill is theta of d coordinates, all v.
func fill(d int, v float64) []float64 {
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = v
	}
	return theta
}

// evalLosses returns every user's loss at theta, checking each lies in [0, LossBound].
func evalLosses(t *testing.T, task *Task, theta []float64) []float64 {
	t.Helper()
	dst := make([]float64, task.Users())
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	for i, v := range dst {
		if !(v >= 0 && v <= task.LossBound()) {
			t.Fatalf("%s, theta %v: user %d's loss %v outside [0, %v]", task.DataLabel(), theta, i, v, task.LossBound())
		}
	}
	return dst
}

func meanOf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Every table gives its dimension, users, label and bound; its losses lie in [0, bound],
// are finite at the corners of the box and repeat at the same seed.
func TestTables(t *testing.T) {
	for _, tc := range []struct {
		table, label   string
		d, users, rows int
	}{
		{"", "breast-cancer", 30, 284, 569},
		{"breast-cancer", "breast-cancer", 30, 284, 569},
		{"wine", "wine", 13, 89, 178},
		{"digits", "digits", 16, 898, 1797},
		{"anes96", "anes96", 9, 472, 944},
		{"modechoice", "modechoice", 6, 105, 210},
		{"iris", "iris", 4, 75, 150},
		{"macrodata", "macrodata", 11, 101, 201},
		{"iris-virginica", "iris-virginica", 4, 75, 150},
	} {
		task, err := New(Config{Table: tc.table, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		info, err := Table(tc.table)
		if err != nil {
			t.Fatal(err)
		}
		train, val := task.Data()
		nt, p := train.X.Dims()
		if task.Dim() != tc.d || task.Users() != tc.users || task.DataLabel() != tc.label || task.Name() != Name ||
			task.LossBound() != -math.Log(pMin) || info.D != tc.d || info.Rows != tc.rows || info.NVal != tc.users ||
			nt+len(val.Y) != tc.rows || p != info.Features {
			t.Errorf("table %q: d %d, users %d, label %q, bound %v, info %+v, train %d x %d", tc.table, task.Dim(),
				task.Users(), task.DataLabel(), task.LossBound(), info, nt, p)
		}
		lo, hi := task.Bounds()
		if len(lo) != tc.d || len(hi) != tc.d || lo[0] != thetaLo || hi[tc.d-1] != thetaHi {
			t.Errorf("table %q: bounds %v, %v", tc.table, lo, hi)
		}
		// the corners: every coordinate at one end, and the ends alternating
		alternating, other := fill(tc.d, thetaLo), fill(tc.d, thetaHi)
		for j := 0; j < tc.d; j += 2 {
			alternating[j], other[j] = thetaHi, thetaLo
		}
		for _, theta := range [][]float64{fill(tc.d, thetaLo), fill(tc.d, thetaHi), alternating, other} {
			evalLosses(t, task, theta)
		}
		again, err := New(Config{Table: tc.table, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		theta := fill(tc.d, -1)
		theta[0] = 2
		if a, b := evalLosses(t, task, theta), evalLosses(t, again, theta); !slices.Equal(a, b) {
			t.Errorf("table %q: the same seed gave different losses", tc.table)
		}
		if err := task.Losses(fill(tc.d+1, 0), make([]float64, tc.users)); err == nil {
			t.Errorf("table %q: theta of %d values accepted", tc.table, tc.d+1)
		}
		if _, err := New(Config{Table: tc.table, NTrain: tc.rows / 2, NVal: tc.rows - tc.rows/2 + 1}); err == nil || !strings.Contains(err.Error(), tc.label) {
			t.Errorf("table %q: a split of %d rows: error %v", tc.table, tc.rows+1, err)
		}
	}
}

// On wine and digits a moderate penalty (lambda = 1) fits the validation users better than
// the heaviest, which leaves about the intercept.
func TestModeratePenaltyBeatsTheHeaviest(t *testing.T) {
	for _, table := range []string{"wine", "digits"} {
		task, err := New(Config{Table: table, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		moderate := meanOf(evalLosses(t, task, fill(task.Dim(), 0)))
		heaviest := meanOf(evalLosses(t, task, fill(task.Dim(), thetaHi)))
		if !(moderate < 0.75*heaviest) {
			t.Errorf("%s: mean validation loss %v at lambda = 1, %v at lambda = e^%v", table, moderate, heaviest, thetaHi)
		}
	}
}

// The fit is the minimiser on wine, digits, anes96 and modechoice too, where digits' and
// modechoice's penalties are shared by groups of features.
func TestFitIsTheMinimiserOnEveryTable(t *testing.T) {
	for _, table := range []string{"wine", "digits", "anes96", "modechoice"} {
		task, err := New(Config{Table: table, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		theta := fill(task.Dim(), -1)
		theta[0], theta[task.Dim()-1] = thetaLo, 3
		checkFitMinimises(t, task, theta, table)
	}
}

// Digits' pixels are grouped by 2x2 blocks of the 8x8 image, and a pixel constant on the
// training rows is 0 in both splits.
func TestDigitsLayout(t *testing.T) {
	task, err := New(Config{Table: "digits", Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	size := make([]int, 16)
	for j, g := range task.group {
		size[g]++
		if r, c := j/8, j%8; g != (r/2)*4+c/2 {
			t.Errorf("pixel (%d, %d) in group %d", r, c, g)
		}
	}
	if task.group[9] != 0 || task.group[10] != 1 || task.group[63] != 15 || task.group[16] != 4 || !slices.Equal(size, fill16(4)) {
		t.Errorf("groups %v, sizes %v", task.group, size)
	}
	train, val := task.Data()
	constant := 0
	for j := range 64 {
		col := mat.Col(nil, j, train.X)
		if slices.Min(col) != slices.Max(col) {
			continue
		}
		constant++
		if slices.Max(col) != 0 || slices.Min(mat.Col(nil, j, val.X)) != 0 || slices.Max(mat.Col(nil, j, val.X)) != 0 {
			t.Errorf("pixel %d is constant on the training rows but not 0 in both splits", j)
		}
	}
	if constant == 0 {
		t.Error("no pixel is constant on the training rows; the check above checked nothing")
	}
	odd := 0.0
	for _, y := range append(slices.Clone(train.Y), val.Y...) {
		odd += y
	}
	if odd != 906 {
		t.Errorf("%v odd digits, want 906", odd)
	}
}

func fill16(v int) []int {
	s := make([]int, 16)
	for i := range s {
		s[i] = v
	}
	return s
}

// An unknown table is one error naming it and every known table.
func TestUnknownTable(t *testing.T) {
	_, err := New(Config{Table: "titanic"})
	if err == nil {
		t.Fatal("table titanic accepted")
	}
	for _, name := range append(Tables(), "titanic") {
		if !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Errorf("error %q does not name %q", err, name)
		}
	}
	if _, err := Table("titanic"); err == nil {
		t.Error("Table(titanic) accepted")
	}
}

// On anes96 a respondent expecting to vote for Dole is labelled 1 (393 of the 944), one for
// Clinton 0; the default split is in halves, every feature its own penalty, and another
// seed draws another split.
func TestANES96Layout(t *testing.T) {
	task, err := New(Config{Table: "anes96", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	dole := 0.0
	for _, y := range append(slices.Clone(train.Y), val.Y...) {
		dole += y
	}
	if dole != 393 || len(train.Y) != 472 || len(val.Y) != 472 || !slices.Equal(task.group, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("%v labelled 1 (want 393), split %d / %d, groups %v", dole, len(train.Y), len(val.Y), task.group)
	}
	other, err := New(Config{Table: "anes96", Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if otherTrain, _ := other.Data(); mat.Equal(train.X, otherTrain.X) {
		t.Error("seeds 7 and 8 drew the same training rows")
	}
}

// On modechoice a traveller who flew is labelled 1 (58 of the 210); the 17 features share
// six penalties, one per attribute, and the task declares its loss a log loss.
func TestModeChoiceLayout(t *testing.T) {
	task, err := New(Config{Table: "modechoice", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	train, val := task.Data()
	flew := 0.0
	for _, y := range append(slices.Clone(train.Y), val.Y...) {
		flew += y
	}
	want := []int{0, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5}
	if flew != 58 || len(train.Y) != 105 || len(val.Y) != 105 || !slices.Equal(task.group, want) || task.Dim() != 6 {
		t.Errorf("%v labelled 1 (want 58), split %d / %d, groups %v, d %d", flew, len(train.Y), len(val.Y), task.group, task.Dim())
	}
	var l tasks.LogLosser = task
	if !l.LogLoss() {
		t.Error("logreg does not declare a log loss")
	}
}

// The tables come in their order, the default first, the new ones appended.
func TestTableOrder(t *testing.T) {
	want := []string{"breast-cancer", "wine", "digits", "anes96", "modechoice", "iris", "macrodata", "iris-virginica", "synthetic"}
	if got := Tables(); !slices.Equal(got, want) {
		t.Errorf("Tables() = %v, want %v", got, want)
	}
}

// countPositive returns the rows labelled 1 in both splits of task.
func countPositive(task *Task) float64 {
	train, val := task.Data()
	n := 0.0
	for _, y := range append(slices.Clone(train.Y), val.Y...) {
		n += y
	}
	return n
}

// On iris versicolor is labelled 1 (50 of the 150), setosa and virginica 0, and on
// iris-virginica virginica (50 others, none of them versicolor); on macrodata a
// quarter followed by a rise of the unemployment rate is labelled 1 (68 of the 201). Both
// have one penalty per feature, a default split of every row and a fit that is the
// minimiser; a D other than the table's is refused.
func TestIrisAndMacrodataLayout(t *testing.T) {
	for _, tc := range []struct {
		table           string
		positive        float64
		d, ntrain, nval int
	}{
		{"iris", 50, 4, 75, 75},
		{"iris-virginica", 50, 4, 75, 75},
		{"macrodata", 68, 11, 100, 101},
	} {
		task, err := New(Config{Table: tc.table, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		train, val := task.Data()
		groups := make([]int, tc.d)
		for j := range groups {
			groups[j] = j
		}
		info, _ := Table(tc.table)
		if n := countPositive(task); n != tc.positive || len(train.Y) != tc.ntrain || len(val.Y) != tc.nval ||
			!slices.Equal(task.group, groups) || task.Dim() != tc.d || info.MinD != tc.d || info.MaxD != tc.d {
			t.Errorf("%s: %v labelled 1 (want %v), split %d / %d, groups %v, d %d, info %+v", tc.table, n, tc.positive,
				len(train.Y), len(val.Y), task.group, task.Dim(), info)
		}
		for j := range tc.d {
			mean, sd := 0.0, 0.0
			col := mat.Col(nil, j, train.X)
			for _, v := range col {
				mean += v / float64(len(col))
			}
			for _, v := range col {
				sd += (v - mean) * (v - mean) / float64(len(col))
			}
			if math.Abs(mean) > 1e-12 || math.Abs(math.Sqrt(sd)-1) > 1e-12 {
				t.Errorf("%s: training feature %d has mean %v and standard deviation %v", tc.table, j, mean, math.Sqrt(sd))
			}
		}
		theta := fill(tc.d, 0)
		theta[0] = thetaLo
		checkFitMinimises(t, task, theta, tc.table)
		if _, err := New(Config{Table: tc.table, D: tc.d + 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("D = %d", tc.d+1)) {
			t.Errorf("%s at D = %d: error %v", tc.table, tc.d+1, err)
		}
		if _, err := New(Config{Table: tc.table, D: tc.d}); err != nil {
			t.Errorf("%s at its own D = %d: %v", tc.table, tc.d, err)
		}
	}
}

// iris-virginica is iris with another target: the same rows in the same split, and no row
// labelled 1 on both.
func TestIrisVirginicaIsIrisWithAnotherTarget(t *testing.T) {
	iris, err := New(Config{Table: "iris", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	virginica, err := New(Config{Table: "iris-virginica", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	irisTrain, irisVal := iris.Data()
	vTrain, vVal := virginica.Data()
	for _, pair := range [][2]tasks.Dataset{{irisTrain, vTrain}, {irisVal, vVal}} {
		if !mat.Equal(pair[0].X, pair[1].X) {
			t.Fatal("iris-virginica's rows differ from iris's at the same seed")
		}
		for i, y := range pair[0].Y {
			if y == 1 && pair[1].Y[i] == 1 {
				t.Errorf("row %d labelled 1 on both", i)
			}
		}
	}
}

// The synthetic problem: d is the caller's (default 10, 1 to 100), 200 training rows and
// 200 validation users by default, one penalty per feature, the box and bound of every
// table; the same seed draws the same data and losses, another seed other data.
func TestSynthetic(t *testing.T) {
	def, err := New(Config{Table: "synthetic", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	train, val := def.Data()
	info, _ := Table("synthetic")
	if def.Dim() != 10 || def.Users() != 200 || len(train.Y) != 200 || len(val.Y) != 200 || def.DataLabel() != "synthetic" ||
		def.LossBound() != -math.Log(pMin) || info.MinD != 1 || info.MaxD != 100 || info.D != 10 {
		t.Errorf("default: d %d, users %d, split %d / %d, label %q, bound %v, info %+v", def.Dim(), def.Users(),
			len(train.Y), len(val.Y), def.DataLabel(), def.LossBound(), info)
	}
	for _, d := range []int{1, 7, 100} {
		task, err := New(Config{Table: "synthetic", D: d, Seed: 2, NTrain: 60, NVal: 40})
		if err != nil {
			t.Fatal(err)
		}
		tr, va := task.Data()
		lo, hi := task.Bounds()
		if _, p := tr.X.Dims(); task.Dim() != d || p != d || len(lo) != d || lo[0] != thetaLo || hi[d-1] != thetaHi ||
			len(tr.Y) != 60 || len(va.Y) != 40 || len(task.group) != d || task.group[d-1] != d-1 {
			t.Errorf("d = %d: Dim %d, features %d, bounds %v %v, split %d / %d", d, task.Dim(), p, lo, hi, len(tr.Y), len(va.Y))
		}
		evalLosses(t, task, fill(d, thetaLo))
		evalLosses(t, task, fill(d, thetaHi))
	}
	for _, d := range []int{-1, 101} {
		if _, err := New(Config{Table: "synthetic", D: d}); err == nil || !strings.Contains(err.Error(), "[1, 100]") {
			t.Errorf("D = %d: error %v", d, err)
		}
	}
	draw := func(seed uint64) (*Task, []float64) {
		task, err := New(Config{Table: "synthetic", D: 12, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return task, evalLosses(t, task, fill(12, -1))
	}
	a, la := draw(3)
	b, lb := draw(3)
	c, lc := draw(4)
	ta, va := a.Data()
	tb, vb := b.Data()
	tc, vc := c.Data()
	if !mat.Equal(ta.X, tb.X) || !mat.Equal(va.X, vb.X) || !slices.Equal(ta.Y, tb.Y) || !slices.Equal(va.Y, vb.Y) || !slices.Equal(la, lb) {
		t.Error("the same seed drew different data or losses")
	}
	if mat.Equal(ta.X, tc.X) || mat.Equal(va.X, vc.X) || slices.Equal(la, lc) {
		t.Error("seeds 3 and 4 drew the same data")
	}
}

// drawSynthetic follows its doc comment: replaying the generator PCG(seed, syntheticStream)
// by hand gives its first rows, and on many rows the features are standard normal, and the
// labels follow sigmoid(x.w) with w of ceil(d/3) alternating weights of size 2/sqrt(k).
func TestSyntheticModel(t *testing.T) {
	const d, n = 7, 20000 // k = 3: w = (2, -2, 2, 0, 0, 0, 0) / sqrt(3)
	train, val := drawSynthetic(Config{D: d, NTrain: n, NVal: 5, Seed: 9})
	rng := rand.New(rand.NewPCG(9, syntheticStream))
	w := []float64{2 / math.Sqrt(3), -2 / math.Sqrt(3), 2 / math.Sqrt(3), 0, 0, 0, 0}
	for i := range 3 {
		z := 0.0
		for j := range d {
			x := rng.NormFloat64()
			if train.X.At(i, j) != x {
				t.Fatalf("row %d, feature %d: %v, want %v", i, j, train.X.At(i, j), x)
			}
			z += x * w[j]
		}
		if y := rng.Float64() < sigmoid(z); (train.Y[i] == 1) != y {
			t.Fatalf("row %d: label %v, want %v", i, train.Y[i], y)
		}
	}
	if r, _ := val.X.Dims(); r != 5 || len(val.Y) != 5 {
		t.Errorf("%d validation rows, want 5", r)
	}
	// Per feature the mean and variance of x, and the mean of (y - sigmoid(x.w)) x_j, the
	// score of the true model, which vanishes in expectation.
	z := make([]float64, n)
	for i := range n {
		for j := range d {
			z[i] += train.X.At(i, j) * w[j]
		}
	}
	for j := range d {
		mean, sq, score := 0.0, 0.0, 0.0
		for i := range n {
			x := train.X.At(i, j)
			mean += x / n
			sq += x * x / n
			score += (train.Y[i] - sigmoid(z[i])) * x / n
		}
		if math.Abs(mean) > 0.03 || math.Abs(sq-1) > 0.04 || math.Abs(score) > 0.015 {
			t.Errorf("feature %d: mean %v, mean square %v, score %v", j, mean, sq, score)
		}
	}
	// The labels are not those of a model without signal: the signal features' fitted
	// signs follow w.
	task, err := New(Config{Table: "synthetic", D: d, NTrain: 2000, NVal: 10, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.fit(fill(d, -4)); err != nil {
		t.Fatal(err)
	}
	coef := task.w.RawVector().Data
	if !(coef[0] > 0.5 && coef[1] < -0.5 && coef[2] > 0.5) || math.Abs(coef[3]) > 0.2 || math.Abs(coef[d]) > 0.2 {
		t.Errorf("fitted coefficients %v, want about (1.15, -1.15, 1.15, 0, 0, 0, 0) and intercept 0", coef)
	}
}
