package catalog

import (
	"fmt"
	"path/filepath"

	"dpgibo/data"
	"dpgibo/tasks/gpreg"
	"dpgibo/tasks/grouplasso"
	"dpgibo/tasks/logreg"
	"dpgibo/tasks/ridge"
	"dpgibo/tasks/svr"
	"dpgibo/tasks/toy"
)

// Info is what is known about a task without building it (no data generated or read): how
// figures name it and its coordinates, and the dimensions it supports. The runner and the
// figures read it from here, so a task's metadata lives in one place.
type Info struct {
	// Name is the registry name.
	Name string
	// Title names the task in panel titles, e.g. "Group LASSO".
	Title string
	// TitleShowsData adds the data label to the title ("Kernel SVR on ctslice"), for a
	// task that runs on several data sets.
	TitleShowsData bool
	// DataTitles are whole titles on particular data sets, by data label ("anes96":
	// "Logistic regression on ANES 1996"); they take precedence over Title and
	// TitleShowsData.
	DataTitles map[string]string
	// LossLabel labels the task's validation loss on an axis.
	LossLabel string
	// Coord names coordinate j (0-based) of theta at dimension d, e.g. "log C".
	Coord func(d, j int) string
	// MinD is the smallest d the task supports; MaxD the largest at spec's other settings
	// (catalog.New rejects a larger d with a tasks.LimitError).
	MinD int
	MaxD func(spec Spec) int
	// External, for a task that can read data from outside the module (svr: the CT-slice
	// file), says which specs read it and how to find and check it; nil for every other task.
	External *External
	// Precisions, for a task that computes with a choice of arithmetic precision
	// (Spec.Precision), lists them, the first being the one every run used before the task
	// had a choice, and DefaultPrecision is the one Spec.Precision "" means; empty for a
	// task that has no choice.
	Precisions       []string
	DefaultPrecision string
}

// External is how a task reads data from outside the module, given where a user said it is
// (Spec.DataPath, the -ctslice flag; "" applies the task's lookup order).
type External struct {
	// Reads reports whether a spec's task reads the external data (rather than data it
	// names or generates).
	Reads func(Spec) bool
	// Source names the data a run would read without reading it: "file:PATH", or
	// "stand-in" when none is found and the task runs on its labelled stand-in. A path
	// given that does not hold the data is an error.
	Source func(path string) (string, error)
	// Preload reads and checks the data once, before a runner's first task, so that a bad
	// file is reported at once; the tasks built later in the process reuse it.
	Preload func(path string) error
}

// TitleFor is the panel title of the task on the data labelled data.
func (i Info) TitleFor(data string) string {
	if title, ok := i.DataTitles[data]; ok {
		return title
	}
	if i.TitleShowsData && data != "" {
		return i.Title + " on " + data
	}
	return i.Title
}

var groupLassoInfo = Info{
	Title: "Group LASSO", LossLabel: "validation loss", MinD: 1,
	Coord: func(d, j int) string { return fmt.Sprintf("log lambda%d", j+1) },
	MaxD:  func(s Spec) int { return grouplasso.Config{NTrain: s.NTrain, NVal: s.NVal}.MaxD() },
}

var gpregInfo = Info{
	Title: "GP regression", LossLabel: "validation MSE", MinD: 1,
	Coord: func(d, j int) string { return fmt.Sprintf("log l%d", j+1) },
	MaxD:  func(Spec) int { return gpreg.Config{}.MaxD() },
}

var bowlInfo = Info{
	Title: "Quadratic bowl (toy)", LossLabel: "validation loss", MinD: 1,
	Coord: func(d, j int) string { return fmt.Sprintf("theta%d", j+1) },
	MaxD:  func(Spec) int { return 1 << 16 },
}

var toyInfo = Info{
	Title: "README example (toy)", LossLabel: "validation loss", MinD: toy.Dim,
	Coord: func(d, j int) string { return fmt.Sprintf("theta%d", j+1) },
	MaxD:  func(Spec) int { return toy.Dim },
}

// ridgeInfo: on the synthetic problem d is at most 1000; on a table (Spec.Data) it is the
// table's, 9 on randhie, 4 on grunfeld, 6 on engel, and catalog.New rejects any other d.
var ridgeInfo = Info{
	Title: "Group ridge regression", LossLabel: "validation MSE (clipped)", MinD: 1,
	DataTitles: map[string]string{
		data.RANDHIELabel:  "Ridge regression on RAND HIE",
		data.GrunfeldLabel: "Ridge regression on Grunfeld investment",
		data.EngelLabel:    "Ridge regression on Engel food expenditure",
	},
	Coord: func(d, j int) string { return fmt.Sprintf("log lambda%d", j+1) },
	MaxD:  ridgeMaxD,
}

// ridgeMaxD is 1000 on the synthetic problem, the table's d on a table, 0 for data ridge
// does not know.
func ridgeMaxD(s Spec) int {
	if s.Data == "" {
		return 1000
	}
	if table, err := ridge.Table(s.Data); err == nil {
		return table.D
	}
	return 0
}

// logregInfo: d is fixed by the table (Spec.Data): 30 on breast-cancer, 13 on wine, 16 on
// digits, 9 on anes96, 6 on modechoice, 4 on iris, 11 on macrodata; on the synthetic
// problem it is the caller's, 1 to 100. MinD cannot depend on the data, so it is the
// smallest of them (1), and catalog.New rejects any d but the table's.
var logregInfo = Info{
	Title: "Logistic regression", TitleShowsData: true, LossLabel: "validation log loss (clamped)", MinD: logregMinD(),
	DataTitles: map[string]string{data.ANES96Label: "Logistic regression on ANES 1996", data.ModeChoiceLabel: "Logistic regression on travel mode choice",
		data.MacrodataLabel: "Logistic regression on US macroeconomic data"},
	Coord: func(d, j int) string { return fmt.Sprintf("log lambda%d", j+1) },
	MaxD:  logregMaxD,
}

// logregMaxD is the largest d on the data spec.Data names (a table's own d), 0 for data
// logreg does not know.
func logregMaxD(s Spec) int {
	table, err := logreg.Table(s.Data)
	if err != nil {
		return 0
	}
	return table.MaxD
}

// logregMinD is the smallest d logreg takes on any of its data.
func logregMinD() int {
	minD := 0
	for _, label := range logreg.Tables() {
		if table, err := logreg.Table(label); err == nil && (minD == 0 || table.MinD < minD) {
			minD = table.MinD
		}
	}
	return minD
}

var svrInfo = Info{
	Title: "Kernel SVR", TitleShowsData: true, LossLabel: "validation MSE", MinD: 4,
	Coord: svrCoord,
	MaxD:  func(Spec) int { return data.Features + 3 },
	External: &External{
		Reads:   func(s Spec) bool { return s.Data == "" },
		Source:  ctsliceSource,
		Preload: svr.Preload,
	},
	Precisions:       []string{svr.PrecisionFloat64, svr.PrecisionFloat32},
	DefaultPrecision: svr.DefaultPredictPrecision,
}

// ctsliceSource names where svr will find the CT-slice data (data.Find's lookup order: the
// path given, $DPGIBO_CTSLICE, data/ctslice/), or "stand-in".
func ctsliceSource(path string) (string, error) {
	found, err := data.Find(path)
	if err != nil {
		return "", err
	}
	if found.Path == "" {
		return "stand-in", nil
	}
	if abs, err := filepath.Abs(found.Path); err == nil {
		return "file:" + abs, nil
	}
	return "file:" + found.Path, nil
}

// svrCoord names svr's theta = (log l_1, ..., log l_p, log epsilon, log C, log gamma).
func svrCoord(d, j int) string {
	switch j {
	case d - 3:
		return "log epsilon"
	case d - 2:
		return "log C"
	case d - 1:
		return "log gamma"
	}
	return fmt.Sprintf("log l%d", j+1)
}

// Lookup returns the static metadata of the task named name; ok is false for a name the
// catalog does not know.
func Lookup(name string) (info Info, ok bool) {
	e, ok := entries[name]
	if !ok {
		return Info{}, false
	}
	info = e.info
	info.Name = name
	return info, true
}
