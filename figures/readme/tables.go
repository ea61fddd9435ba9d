package main

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"dpgibo/baselines/score"
	"dpgibo/experiments/algocfg"
	"dpgibo/figures/studies"
	"dpgibo/internal/records"
	"dpgibo/private"
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
	line := fmt.Sprintf("Library study: with only `Mu` and `Iters` set (`%s`, the study's base revision of algo's defaults), DP-GIBO's median final loss is within %g x of hand-tuned settings on %d of %d problems (ratios %.3f to %.3f, 10 paired seeds each; [docs/library.md](docs/library.md)).",
		studies.LibraryVariant,
		studies.DefaultsRatio, pass, len(ratios), slices.Min(ratios), slices.Max(ratios))
	loo, err := readOptional[studies.LOORow](filepath.Join(dir, studies.LOOFile))
	if err != nil || len(loo) == 0 {
		return line + "\n", err
	}
	heldPass, held, chosen := studies.HeldOutRecord(loo)
	chosenPass, chosenCount := studies.VariantRecord(rows, chosen)
	return fmt.Sprintf("%s Chosen by leaving one problem out, a default passes on %d of %d held-out problems (within %g x and not ending above its start); the choice on all of them, `%s`, passes on %d of %d.\n",
		line, heldPass, held, studies.DefaultsRatio, chosen, chosenPass, chosenCount), nil
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
	peers, err := libraryPeersTable(dir)
	if err != nil {
		return "", err
	}
	return b.String() + loo + peers, nil
}

// libraryPeerMus are the columns of DP-GIBO in the comparison with the peers, as the
// configs spell them.
var libraryPeerMus = []float64{0.5, 1, 2, math.Inf(1)}

// libraryPeerConfig is the config of DP-GIBO's curve at mu in the comparison with the peers:
// algo's defaults, swept over mu (algocfg.Label of the study's typed values).
func libraryPeerConfig(mu float64) string {
	return algocfg.Label("", "mu", mu, private.DPGIBO.String(), nil, algocfg.Config{Defaults: algocfg.DefaultsLibrary})
}

// The peers the library-peers table sets beside DP-GIBO (studies.LibraryPeersFile).
var (
	tpeName   = score.TPE{}.Info().Name
	cmaesName = score.CMAES{}.Info().Name
)

// libraryPeersTable renders dir/library-peers.csv, when the folder has one: per problem,
// DP-GIBO's median final loss at each mu of libraryPeerMus, TPE's and CMA-ES's, the ratio of
// DP-GIBO at mu = 1 to the better peer, and the median own seconds of a run of each.
func libraryPeersTable(dir string) (string, error) {
	rows, err := readOptional[studies.PeerRow](filepath.Join(dir, studies.LibraryPeersFile))
	if err != nil || len(rows) == 0 {
		return "", err
	}
	type cellKey struct{ problem, column string }
	cells := map[cellKey]studies.PeerRow{}
	var problems []string
	dims := map[string]int{}
	for _, r := range rows {
		column := r.Method
		if r.Method == private.DPGIBO.String() {
			column = r.Config
		}
		cells[cellKey{r.Problem, column}] = r
		if !slices.Contains(problems, r.Problem) {
			problems = append(problems, r.Problem)
			dims[r.Problem] = r.D
		}
	}
	var b strings.Builder
	b.WriteString("\nAgainst the best non-private peers (median final loss over seeds 1-10; own seconds: the median of a run's time outside the objective's evaluations):\n\n| problem | d |")
	for _, mu := range libraryPeerMus {
		fmt.Fprintf(&b, " DP-GIBO mu = %s |", strconv.FormatFloat(mu, 'g', -1, 64))
	}
	b.WriteString(" TPE | CMA-ES | DP-GIBO at mu = 1 / better peer | own s, DP-GIBO mu = 1 | own s, TPE | own s, CMA-ES |\n|---|---|")
	b.WriteString(strings.Repeat("---|", len(libraryPeerMus)+6) + "\n")
	loss := func(p, column string) string {
		if r, ok := cells[cellKey{p, column}]; ok {
			return sig(r.MedianLoss)
		}
		return ""
	}
	own := func(p, column string) string {
		if r, ok := cells[cellKey{p, column}]; ok {
			return optSig(r.MedianOwnSeconds)
		}
		return ""
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "| %s | %d |", p, dims[p])
		for _, mu := range libraryPeerMus {
			fmt.Fprintf(&b, " %s |", loss(p, libraryPeerConfig(mu)))
		}
		ratio := ""
		dp, okDP := cells[cellKey{p, libraryPeerConfig(1)}]
		tpe, okT := cells[cellKey{p, tpeName}]
		cma, okC := cells[cellKey{p, cmaesName}]
		if okDP && okT && okC {
			ratio = fmt.Sprintf("%.3f", dp.MedianLoss/min(tpe.MedianLoss, cma.MedianLoss))
		}
		fmt.Fprintf(&b, " %s | %s | %s | %s | %s | %s |\n", loss(p, tpeName), loss(p, cmaesName), ratio, own(p, libraryPeerConfig(1)), own(p, tpeName), own(p, cmaesName))
	}
	return b.String(), nil
}

// looTable renders dir/defaults-loo.csv (the leave-one-problem-out study), when the folder
// has one: each held-out problem's choice and its ratio there, the choice on every problem,
// and the held-out record beside revision 2's own (rows: defaults.csv).
func looTable(dir string, rows []studies.DefaultsRow) (string, error) {
	loo, err := readOptional[studies.LOORow](filepath.Join(dir, studies.LOOFile))
	if err != nil || len(loo) == 0 {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nLeave one problem out: for each problem, the candidate ranked first on the others and its ratio on the problem held out (passes: ratio at most %g and median final loss not above the median start).\n\n", studies.DefaultsRatio)
	b.WriteString("| held out | chosen on the others | their worst ratio | of them above start | held-out ratio | held-out above start | passes |\n|---|---|---|---|---|---|---|\n")
	for _, r := range loo {
		if r.HeldOut != studies.AllProblems {
			fmt.Fprintf(&b, "| %s | %s | %.3f | %d | %.3f | %v | %v |\n", r.HeldOut, r.Chosen, r.TrainWorst, r.TrainAboveStart, r.HeldOutRatio, r.HeldOutAboveStart, r.Pass)
		}
	}
	heldPass, heldCount, chosen := studies.HeldOutRecord(loo)
	revPass, revCount := studies.VariantRecord(rows, studies.LibraryVariant)
	fmt.Fprintf(&b, "\nHeld out, the choice passes on %d of %d problems; `%s` (revision 2) passes on %d of %d. Chosen on all %d problems: `%s`.\n",
		heldPass, heldCount, studies.LibraryVariant, revPass, revCount, heldCount, chosen)
	return b.String(), nil
}
