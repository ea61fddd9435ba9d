package logreg

import (
	"fmt"
	"math"
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
	_, err := New(Config{Table: "iris"})
	if err == nil {
		t.Fatal("table iris accepted")
	}
	for _, name := range append(Tables(), "iris") {
		if !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Errorf("error %q does not name %q", err, name)
		}
	}
	if _, err := Table("iris"); err == nil {
		t.Error("Table(iris) accepted")
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
