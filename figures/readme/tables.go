package main

import (
	"cmp"
	"fmt"
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
	fmt.Fprintf(&b, "| problem | d | hand-tuned | defaults | pairs | median final loss, hand-tuned | defaults | ratio | at most %g x | HL defaults - hand [95%% CI] | gap ratio |\n|---|---|---|---|---|---|---|---|---|---|---|\n", studies.DefaultsRatio)
	pass, count := map[string]int{}, map[string]int{}
	var variants []string
	for _, r := range rows {
		hand := r.Hand
		hand = cmp.Or(hand, "the paper's")
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %s | %s | %.3f | %v | %s [%s, %s] | %s |\n", r.Problem, r.D, cell(hand), r.Variant, r.Pairs,
			sig(r.MedianHand), sig(r.MedianVariant), r.Ratio, r.Pass, sig(r.Estimate), sig(r.CILow), sig(r.CIHigh), optSig(r.GapRatio))
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
	return b.String(), nil
}
