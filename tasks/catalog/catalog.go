// Package catalog builds any task of dpgibo from one flat description, so that the
// experiment runner and the command line need not know each task's Config.
package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"dpgibo/data"
	"dpgibo/tasks"
	"dpgibo/tasks/bowl"
	"dpgibo/tasks/gpreg"
	"dpgibo/tasks/grouplasso"
	"dpgibo/tasks/logreg"
	"dpgibo/tasks/ridge"
	"dpgibo/tasks/svr"
	"dpgibo/tasks/toy"
)

// Spec names a task and the few settings every experiment varies. A zero field takes the
// task's default.
type Spec struct {
	// Name is the task's registry name (see Names).
	Name string
	// D is the number of hyperparameters: the number of groups for grouplasso, the input
	// dimension for gpreg, and d = p + 3 for svr (p features plus epsilon, C and gamma;
	// D >= 4).
	D int
	// Seed fixes the task's data.
	Seed uint64
	// NTrain and NVal are the sizes of the training and validation splits (NVal is the
	// number of users).
	NTrain, NVal int
	// DataPath is where a task finds data from outside the module (External): the CT-slice
	// data file or directory (the -ctslice flag), used only by svr;
	// "" applies svr's lookup order and falls back to its labelled stand-in.
	DataPath string
	// Data selects a data set by its label where a task has several: "" is the task's
	// default; svr also takes "ctslice-sample" (the embedded real sample, split by
	// patient) and "ctslice-synthetic" (the stand-in even when the full file is present);
	// logreg takes "breast-cancer" (its default), "wine", "digits", "anes96",
	// "modechoice", "iris", "macrodata", "iris-virginica" and "synthetic" (logreg.Tables); ridge takes
	// "randhie", "grunfeld" and "engel" (ridge.Tables; "" is its synthetic problem).
	Data string
	// Precision is svr's precision of the prediction's cross products
	// (svr.Config.PredictPrecision: "float64" or "float32"; "" : svr's default). Other
	// tasks take "" only.
	Precision string
}

// entry is everything the catalog knows of one task: its constructor, its static metadata
// and its per-evaluation cost. Adding a task is one line of entries.
type entry struct {
	build       func(Spec) (tasks.Task, error)
	info        Info
	evalSeconds func(Spec) float64
}

// entries holds every known task by registry name.
var entries = map[string]entry{
	grouplasso.Name: {buildGroupLasso, groupLassoInfo, groupLassoEvalSeconds},
	gpreg.Name:      {buildGPReg, gpregInfo, gpregEvalSeconds},
	svr.Name:        {buildSVR, svrInfo, svrEvalSeconds},
	bowl.Name:       {buildBowl, bowlInfo, bowlEvalSeconds},
	ridge.Name:      {buildRidge, ridgeInfo, ridgeEvalSeconds},
	logreg.Name:     {buildLogReg, logregInfo, logregEvalSeconds},
	toy.Name:        {buildToy, toyInfo, toyEvalSeconds},
}

func buildBowl(s Spec) (tasks.Task, error) {
	if err := defaultDataOnly(s); err != nil {
		return nil, err
	}
	if s.NTrain != 0 {
		return nil, fmt.Errorf("task %s has no training rows; NTrain must be 0, got %d", s.Name, s.NTrain)
	}
	if maxD := bowlInfo.MaxD(s); s.D > maxD {
		return nil, &tasks.LimitError{Task: bowl.Name, D: s.D, MaxD: maxD, Reason: "a toy problem; its centres take users x d floats"}
	}
	return bowl.New(bowl.Config{D: s.D, Users: s.NVal, Seed: s.Seed})
}

func buildToy(s Spec) (tasks.Task, error) {
	if err := defaultDataOnly(s); err != nil {
		return nil, err
	}
	if s.NTrain != 0 {
		return nil, fmt.Errorf("task %s has no training rows; NTrain must be 0, got %d", s.Name, s.NTrain)
	}
	if s.D != 0 && s.D != toy.Dim {
		return nil, &tasks.LimitError{Task: toy.Name, D: s.D, MaxD: toy.Dim, Reason: "the README example's two hyperparameters"}
	}
	return toy.New(toy.Config{Users: s.NVal, Seed: s.Seed})
}

func buildRidge(s Spec) (tasks.Task, error) {
	if err := noPrecision(s); err != nil {
		return nil, err
	}
	switch {
	case s.Data == "":
		if maxD := ridgeInfo.MaxD(s); s.D > maxD {
			return nil, &tasks.LimitError{Task: ridge.Name, D: s.D, MaxD: maxD, Reason: "the closed-form fit solves a dense system of d*GroupSize unknowns per evaluation"}
		}
	case slices.Contains(ridge.Tables(), s.Data):
		table, err := ridge.Table(s.Data)
		if err != nil {
			return nil, err
		}
		reason := fmt.Sprintf("on the %s table d is %d, %s", s.Data, table.D, table.Groups)
		switch {
		case s.D > table.D:
			return nil, &tasks.LimitError{Task: ridge.Name, D: s.D, MaxD: table.D, Reason: reason}
		case s.D != 0 && s.D < table.D:
			return nil, fmt.Errorf("d = %d is not supported: %s", s.D, reason)
		}
	default:
		known := make([]string, 0, len(ridge.Tables()))
		for _, label := range ridge.Tables() {
			known = append(known, fmt.Sprintf("%q", label))
		}
		return nil, fmt.Errorf("unknown data %q (known: %q for the synthetic problem, %s)", s.Data, "", strings.Join(known, ", "))
	}
	return ridge.New(ridge.Config{Table: s.Data, D: s.D, Seed: s.Seed, NTrain: s.NTrain, NVal: s.NVal})
}

func buildLogReg(s Spec) (tasks.Task, error) {
	table, err := logreg.Table(s.Data)
	if err != nil {
		known := make([]string, 0, 3)
		for _, label := range logreg.Tables() {
			known = append(known, fmt.Sprintf("%q", label))
		}
		return nil, fmt.Errorf("unknown data %q (known: %q for %q, %s)", s.Data, "", logreg.Tables()[0], strings.Join(known, ", "))
	}
	if err := noPrecision(s); err != nil {
		return nil, err
	}
	reason := fmt.Sprintf("on the %s table d is %d, %s (%d features)", table.Label, table.D, table.Groups, table.Features)
	if table.MinD < table.MaxD {
		reason = fmt.Sprintf("on the %s data d is at most %d, %s", table.Label, table.MaxD, table.Groups)
	}
	switch {
	case s.D > table.MaxD:
		return nil, &tasks.LimitError{Task: logreg.Name, D: s.D, MaxD: table.MaxD, Reason: reason}
	case s.D != 0 && s.D < table.MinD:
		return nil, fmt.Errorf("d = %d is not supported: %s", s.D, reason)
	}
	return logreg.New(logreg.Config{Table: s.Data, D: s.D, Seed: s.Seed, NTrain: s.NTrain, NVal: s.NVal})
}

func buildGroupLasso(s Spec) (tasks.Task, error) {
	if err := defaultDataOnly(s); err != nil {
		return nil, err
	}
	return grouplasso.New(grouplasso.Config{D: s.D, Seed: s.Seed, NTrain: s.NTrain, NVal: s.NVal})
}

func buildGPReg(s Spec) (tasks.Task, error) {
	if err := defaultDataOnly(s); err != nil {
		return nil, err
	}
	return gpreg.New(gpreg.Config{D: s.D, Seed: s.Seed, NTrain: s.NTrain, NVal: s.NVal})
}

func buildSVR(s Spec) (tasks.Task, error) {
	cfg := svr.Config{Seed: s.Seed, NTrain: s.NTrain, NVal: s.NVal, Path: s.DataPath, PredictPrecision: s.Precision}
	switch s.Data {
	case "":
	case data.SampleLabel:
		cfg.Sample, cfg.Path = true, ""
	case data.StandinLabel:
		cfg.Standin, cfg.Path = true, ""
	default:
		return nil, fmt.Errorf("unknown data %q (known: %q for the lookup order, %q, %q)", s.Data, "", data.SampleLabel, data.StandinLabel)
	}
	if s.D != 0 {
		if s.D < svrInfo.MinD {
			return nil, fmt.Errorf("dimension %d is too small: d = p + 3 hyperparameters with p >= 1 features, so d >= %d", s.D, svrInfo.MinD)
		}
		if maxD := svrInfo.MaxD(s); s.D > maxD {
			return nil, &tasks.LimitError{Task: svr.Name, D: s.D, MaxD: maxD, Reason: fmt.Sprintf(
				"d = p + 3 with p of the CT-slice data's %d features", data.Features)}
		}
		cfg.P = s.D - 3
	}
	return svr.New(cfg)
}

// defaultDataOnly rejects a data selection for tasks that have one data set, and a
// precision for tasks that have none to choose.
func defaultDataOnly(s Spec) error {
	if s.Data != "" {
		return fmt.Errorf("task %s generates its own data; Data must be empty, got %q", s.Name, s.Data)
	}
	return noPrecision(s)
}

// noPrecision rejects a precision for tasks that have none to choose.
func noPrecision(s Spec) error {
	if s.Precision != "" {
		return fmt.Errorf("task %s has no precision setting (only %s has); Precision must be empty, got %q", s.Name, svr.Name, s.Precision)
	}
	return nil
}

// Names returns the known task names, sorted.
func Names() []string {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// New builds the task spec names. An unknown name is an error listing the known ones.
func New(spec Spec) (tasks.Task, error) {
	e, ok := entries[spec.Name]
	if !ok {
		return nil, fmt.Errorf("catalog: unknown task %q (known: %s)", spec.Name, strings.Join(Names(), ", "))
	}
	task, err := e.build(spec)
	if err != nil {
		return nil, fmt.Errorf("catalog: task %s: %w", spec.Name, err)
	}
	return task, nil
}
