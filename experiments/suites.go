package main

import (
	"fmt"
	"slices"
	"strings"

	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
)

// Suite names accepted by -suite: the figure suites of package suites, and the studies
// this command runs itself.
const (
	SuitePaper     = suites.Paper
	SuiteQuick     = suites.Quick
	SuitePrivate   = suites.Private
	SuitePeers     = suites.Peers
	SuiteDesign    = suites.Design
	SuitePrecision = suites.Precision
	SuiteDefaults  = suites.Defaults
	SuiteAudit     = "audit"
	SuiteTheory    = "theory"
	// suiteZOPilot runs dp-zo's pilot (package zopilot).
	suiteZOPilot = "zo-pilot"
)

var suiteNames = append(append([]string(nil), suites.Names...), SuiteAudit, SuiteTheory, suiteFStar, suiteZOPilot)

// suiteFigures returns the figures of suite, restricted to only when it is not empty; nil
// for the studies.
func suiteFigures(suite, only string) ([]runner.Figure, error) {
	switch suite {
	case suiteFStar:
		return nil, nil // -only names a figure whose settings are searched (fstarTargets)
	case SuiteAudit, SuiteTheory, suiteZOPilot:
		if only != "" {
			return nil, fmt.Errorf("-only is not used by -suite=%s", suite)
		}
		return nil, nil
	}
	if !slices.Contains(suites.Names, suite) {
		return nil, fmt.Errorf("unknown suite %q (known: %s)", suite, strings.Join(suiteNames, ", "))
	}
	return suites.Figures(suite, only)
}

// allFigureNames lists the figures of every figure suite, once each, sorted.
func allFigureNames() []string {
	var names []string
	for _, suite := range suites.Names {
		figs, _ := suites.Figures(suite, "")
		for _, f := range figs {
			if !slices.Contains(names, f.Name) {
				names = append(names, f.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}
