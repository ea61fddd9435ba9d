package catalog

import (
	"fmt"
	"slices"

	"dpgibo/data"
	"dpgibo/tasks/gpreg"
	"dpgibo/tasks/grouplasso"
	"dpgibo/tasks/logreg"
	"dpgibo/tasks/ridge"
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

// ridgeInfo: on the synthetic problem d is at most 1000; on randhie (Spec.Data) it is 9,
// one penalty per feature, and catalog.New rejects any other d.
var ridgeInfo = Info{
	Title: "Group ridge regression", LossLabel: "validation MSE (clipped)", MinD: 1,
	DataTitles: map[string]string{data.RANDHIELabel: "Ridge regression on RAND HIE"},
	Coord:      func(d, j int) string { return fmt.Sprintf("log lambda%d", j+1) },
	MaxD:       ridgeMaxD,
}

// ridgeMaxD is 1000 on the synthetic problem, the table's d on a table, 0 for data ridge
// does not know.
func ridgeMaxD(s Spec) int {
	switch {
	case s.Data == "":
		return 1000
	case slices.Contains(ridge.Tables(), s.Data):
		return ridge.RANDHIEFeatures
	}
	return 0
}

// logregInfo: d is fixed by the table (Spec.Data): 30 on breast-cancer, 13 on wine, 16 on
// digits, 9 on anes96, 6 on modechoice. MinD cannot depend on the table, so it is the smallest of them, and
// catalog.New rejects any d but the table's.
var logregInfo = Info{
	Title: "Logistic regression", TitleShowsData: true, LossLabel: "validation log loss (clamped)", MinD: logregMinD(),
	DataTitles: map[string]string{data.ANES96Label: "Logistic regression on ANES 1996", data.ModeChoiceLabel: "Logistic regression on travel mode choice"},
	Coord:      func(d, j int) string { return fmt.Sprintf("log lambda%d", j+1) },
	MaxD:       logregMaxD,
}

// logregMaxD is the d of the table spec.Data names, 0 for a table logreg does not know.
func logregMaxD(s Spec) int {
	table, err := logreg.Table(s.Data)
	if err != nil {
		return 0
	}
	return table.D
}

// logregMinD is the smallest d of logreg's tables.
func logregMinD() int {
	minD := 0
	for _, label := range logreg.Tables() {
		if table, err := logreg.Table(label); err == nil && (minD == 0 || table.D < minD) {
			minD = table.D
		}
	}
	return minD
}

var svrInfo = Info{
	Title: "Kernel SVR", TitleShowsData: true, LossLabel: "validation MSE", MinD: 4,
	Coord: svrCoord,
	MaxD:  func(Spec) int { return data.Features + 3 },
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
