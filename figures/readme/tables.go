package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"dpgibo/figures/studies"
	"dpgibo/internal/records"
)

// defaultsSummary is one line on dir/defaults.csv for README: on how many problems algo's
// own defaults are within DefaultsRatio of hand-tuned, and the range of their ratios.
func defaultsSummary(dir string) (string, error) {
	rows, err := records.ReadFile[studies.DefaultsRow](filepath.Join(dir, studies.DefaultsFile))
	if err != nil {
		return "", err
	}
	var ratios []float64
	pass := 0
	for _, r := range rows {
		if r.Variant != studies.LibraryVariant {
			continue
		}
		ratios = append(ratios, r.Ratio)
		if r.Pass {
			pass++
		}
	}
	if len(ratios) == 0 {
		return "", fmt.Errorf("%s: no %s rows", studies.DefaultsFile, studies.LibraryVariant)
	}
	return fmt.Sprintf("Library study: with only `Mu` and `Iters` set, DP-GIBO's median final loss is within %g x of hand-tuned settings on %d of %d problems (ratios %.3f to %.3f, 10 paired seeds each; [docs/library.md](docs/library.md)).\n",
		studies.DefaultsRatio, pass, len(ratios), slices.Min(ratios), slices.Max(ratios)), nil
}

// defaultsTable renders dir/defaults.csv: one row per problem and defaults variant, and a
// line saying on how many problems each variant passes the bar.
func defaultsTable(dir string) (string, error) {
	rows, err := records.ReadFile[studies.DefaultsRow](filepath.Join(dir, studies.DefaultsFile))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| problem | d | hand-tuned | defaults | pairs | median final loss, hand-tuned | defaults | ratio | at most %g x | HL defaults - hand [95%% CI] | gap ratio | median start | ends above start |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", studies.DefaultsRatio)
	pass, count := map[string]int{}, map[string]int{}
	var variants []string
	for _, r := range rows {
		hand := r.Hand
		hand = cmp.Or(hand, "the paper's")
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %s | %s | %.3f | %v | %s [%s, %s] | %s | %s | %v |\n", r.Problem, r.D, cell(hand), r.Variant, r.Pairs,
			sig(r.MedianHand), sig(r.MedianVariant), r.Ratio, r.Pass, sig(r.Estimate), sig(r.CILow), sig(r.CIHigh), optSig(r.GapRatio),
			sig(r.MedianStart), r.AboveStart)
		if !slices.Contains(variants, r.Variant) {
			variants = append(variants, r.Variant)
		}
		count[r.Variant]++
		if r.Pass {
			pass[r.Variant]++
		}
	}
	b.WriteString("\n")
	for _, v := range variants {
		fmt.Fprintf(&b, "`%s` is within %g x of hand-tuned on %d of %d problems.\n", v, studies.DefaultsRatio, pass[v], count[v])
	}
	loo, err := looTable(dir, rows)
	if err != nil {
		return "", err
	}
	return b.String() + loo, nil
}

// looTable renders dir/defaults-loo.csv (the leave-one-problem-out study), when the folder
// has one: each held-out problem's choice and its ratio there, the choice on every problem,
// and the held-out record beside revision 2's own (rows: defaults.csv).
func looTable(dir string, rows []studies.DefaultsRow) (string, error) {
	path := filepath.Join(dir, studies.LOOFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	loo, err := records.ReadFile[studies.LOORow](path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nLeave one problem out: for each problem, the candidate ranked first on the others and its ratio on the problem held out (passes: ratio at most %g and median final loss not above the median start).\n\n", studies.DefaultsRatio)
	b.WriteString("| held out | chosen on the others | their worst ratio | of them above start | held-out ratio | held-out above start | passes |\n|---|---|---|---|---|---|---|\n")
	heldPass, heldCount, chosen := 0, 0, ""
	for _, r := range loo {
		if r.HeldOut == studies.AllProblems {
			chosen = r.Chosen
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.3f | %d | %.3f | %v | %v |\n", r.HeldOut, r.Chosen, r.TrainWorst, r.TrainAboveStart, r.HeldOutRatio, r.HeldOutAboveStart, r.Pass)
		heldCount++
		if r.Pass {
			heldPass++
		}
	}
	revPass, revCount := 0, 0
	for _, r := range rows {
		if r.Variant == studies.LibraryVariant {
			revCount++
			if r.Pass && !r.AboveStart {
				revPass++
			}
		}
	}
	fmt.Fprintf(&b, "\nHeld out, the choice passes on %d of %d problems; `%s` (revision 2) passes on %d of %d. Chosen on all %d problems: `%s`.\n",
		heldPass, heldCount, studies.LibraryVariant, revPass, revCount, heldCount, chosen)
	return b.String(), nil
}
