package studies

import (
	"fmt"

	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// Outputs returns, without writing them, the studies' tables of res when it holds their
// figures: EquivalenceFile (the design, precision, implementation and revision studies,
// with design shares from timings), DefaultsFile (the library study), LOOFile (its
// leave-one-problem-out choice of defaults), LibraryPeersFile (its comparison with the
// non-private peers, own times from timings), LibraryPrivateFile and
// LibraryPrivateRulesFile (the private-tuner study and its choice of rule), LowSNRFile,
// LowSNRChoiceFile and LowSNRAcceptanceFile (the low-SNR study: its arms, the choice of
// DP-GIBO's default, dp-auto's acceptance on the held-out cells), LowSNRCandidatesFile (how
// each candidate stands) and LowSNRRulesFile (the choice of dp-auto's rule).
func Outputs(res *verdict.Results, timings []records.Timing) ([]records.File, error) {
	eq, err := equivalence(res, designShares(timings))
	if err != nil {
		return nil, fmt.Errorf("design study: %w", err)
	}
	study, err := defaultsStudy(res)
	if err != nil {
		return nil, fmt.Errorf("library study: %w", err)
	}
	loo, err := defaultsLeaveOneOut(study)
	if err != nil {
		return nil, err
	}
	files, err := table(nil, EquivalenceFile, eq)
	if err != nil {
		return nil, err
	}
	if files, err = table(files, DefaultsFile, study); err != nil {
		return nil, err
	}
	if files, err = table(files, LOOFile, loo); err != nil {
		return nil, err
	}
	if files, err = table(files, LibraryPeersFile, libraryPeers(res, timings)); err != nil {
		return nil, err
	}
	priv, err := libraryPrivate(res)
	if err != nil {
		return nil, fmt.Errorf("private-tuner study: %w", err)
	}
	if files, err = table(files, LibraryPrivateFile, priv); err != nil {
		return nil, err
	}
	rules, err := libraryPrivateRules(res)
	if err != nil {
		return nil, fmt.Errorf("private-tuner study: %w", err)
	}
	if files, err = table(files, LibraryPrivateRulesFile, rules); err != nil {
		return nil, err
	}
	cells, err := readLowSNRCells(res)
	if err != nil {
		return nil, err
	}
	choice, err := lowSNRChoice(cells)
	if err != nil {
		return nil, fmt.Errorf("low-SNR study: %w", err)
	}
	accept, err := lowSNRAcceptance(cells)
	if err != nil {
		return nil, fmt.Errorf("low-SNR study: %w", err)
	}
	candidates, err := lowSNRCandidates(cells)
	if err != nil {
		return nil, fmt.Errorf("low-SNR study: %w", err)
	}
	autoRules, err := lowSNRRules(cells, choice)
	if err != nil {
		return nil, fmt.Errorf("low-SNR study, dp-auto's rule: %w", err)
	}
	if files, err = table(files, LowSNRFile, lowSNR(cells)); err != nil {
		return nil, err
	}
	if files, err = table(files, LowSNRCandidatesFile, candidates); err != nil {
		return nil, err
	}
	if files, err = table(files, LowSNRChoiceFile, choice); err != nil {
		return nil, err
	}
	if files, err = table(files, LowSNRRulesFile, autoRules); err != nil {
		return nil, err
	}
	return table(files, LowSNRAcceptanceFile, accept)
}

// table appends to files the table name of rows, unless rows is empty.
func table[T any](files []records.File, name string, rows []T) ([]records.File, error) {
	if len(rows) == 0 {
		return files, nil
	}
	data, err := records.Marshal(rows)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return append(files, records.File{Name: name, Data: data}), nil
}

// EquivalenceFile is the table of the design, precision, implementation and revision
// studies, written when a results folder holds a figure PREFIX-NAME and NAME (see
// equivalence).
const EquivalenceFile = "design-equivalence.csv"
