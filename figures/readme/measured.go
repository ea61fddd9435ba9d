package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"

	"dpgibo/baselines/bo"
	"dpgibo/baselines/registry"
	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/internal/progress"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

// costRow is one committed figure's measured cost.
type costRow struct {
	folder, suite, figure, build string
	// cellSeconds holds each distinct cell's total seconds by stem.
	cellSeconds  map[string]float64
	design, eval float64
	invocations  int
	wall         float64
}

// costTotal is the measured cost of the figures of one folder, suite and build.
type costTotal struct {
	folder, suite, build string
	figures, cells       int
	cellSeconds, wall    float64
	// expected is the wall time of the distinct cells at expectedWorkers workers, scheduled
	// as the runner schedules them (longest first): what -plan prints on the committed
	// machine.
	expected float64
}

// expectedWorkers is the number of workers README's expected times are for: the cores of
// the committed machine.
const expectedWorkers = 2

// committedMachine is the machine the committed runs were timed on.
const committedMachine = "a 2-core AMD EPYC (Zen 4)"

// totalSeconds sums the total seconds of the cells of times, in stem order.
func totalSeconds(times map[string]float64) float64 {
	sum := 0.0
	for _, stem := range sortedKeys(times) {
		sum += times[stem]
	}
	return sum
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// costTotals groups rows by folder, suite and build, in order of first appearance: a cell
// shared by two figures of a group (fig3f's are fig2b's) counts once.
func costTotals(rows []costRow) []costTotal {
	type key struct{ folder, suite, build string }
	var keys []key
	cells := map[key]map[string]float64{}
	totals := map[key]*costTotal{}
	for _, r := range rows {
		k := key{r.folder, r.suite, r.build}
		if totals[k] == nil {
			keys = append(keys, k)
			totals[k] = &costTotal{folder: r.folder, suite: r.suite, build: r.build}
			cells[k] = map[string]float64{}
		}
		t := totals[k]
		t.figures++
		t.wall += r.wall
		for stem, sec := range r.cellSeconds {
			cells[k][stem] = sec
		}
	}
	out := make([]costTotal, 0, len(keys))
	for _, k := range keys {
		t := totals[k]
		t.cells, t.cellSeconds = len(cells[k]), totalSeconds(cells[k])
		costs := make([]float64, 0, len(cells[k]))
		for _, stem := range sortedKeys(cells[k]) {
			costs = append(costs, cells[k][stem])
		}
		t.expected = progress.WallSeconds(costs, expectedWorkers)
		out = append(out, *t)
	}
	return out
}

// buildName says which build computed a run: "OpenBLAS" or "pure Go" (gonum).
func buildName(m *runinfo.Manifest) string {
	if strings.HasPrefix(m.BLAS, "openblas") {
		return "OpenBLAS"
	}
	return "pure Go"
}

// resultFolders returns dir and every folder below it that holds a manifest, in name order.
func resultFolders(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if m, _ := filepath.Glob(filepath.Join(path, "manifest*.json")); len(m) > 0 {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// readInvocations reads the invocations log that covers folder: its own, else the nearest
// one in a folder above it, up to root. A folder without any log has none.
func readInvocations(folder, root string) ([]records.Invocation, error) {
	for dir := folder; ; dir = filepath.Dir(dir) {
		rows, err := records.ReadFile[records.Invocation](filepath.Join(dir, records.InvocationsFile))
		if err == nil {
			return rows, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if rel, _ := filepath.Rel(root, dir); rel == "." || strings.HasPrefix(rel, "..") {
			return nil, nil
		}
	}
}

// measuredCosts collects, for every committed figure under dir (dir and its subfolders with
// manifests), its distinct cells and their cell-seconds from its timings (a cell listed in two
// timings files counts once) and its wall time summed over every
// logged invocation of that figure name in its folder's log.
func measuredCosts(dir string) ([]costRow, error) {
	folders, err := resultFolders(dir)
	if err != nil {
		return nil, err
	}
	var rows []costRow
	for _, folder := range folders {
		manifests, err := readManifests(folder)
		if err != nil {
			return nil, err
		}
		timings, err := records.ReadTimings(folder)
		if err != nil {
			return nil, err
		}
		invocations, err := readInvocations(folder, dir)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, folder)
		if err != nil {
			return nil, err
		}
		figs := make([]string, 0, len(manifests))
		for fig := range manifests {
			figs = append(figs, fig)
		}
		sort.Strings(figs)
		for _, fig := range figs {
			m := manifests[fig]
			r := costRow{folder: rel, suite: m.Suite, figure: fig, build: buildName(m), cellSeconds: map[string]float64{}}
			for _, t := range timings {
				if _, seen := r.cellSeconds[t.Cell]; !seen && slices.Contains(strings.Split(t.Figures, ";"), fig) {
					r.cellSeconds[t.Cell] = t.TotalSeconds
					r.design += t.DesignSeconds
					r.eval += t.EvalSeconds
				}
			}
			for _, inv := range invocations {
				if inv.Figure == fig {
					r.invocations++
					r.wall += inv.WallSeconds
				}
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// wallText writes seconds as a duration rounded to the second, e.g. "21m35s".
func wallText(seconds float64) string {
	return (time.Duration(seconds+0.5) * time.Second).String()
}

// costTable renders the measured cost of every committed run under dir: one row per figure
// and one total per folder and suite.
func costTable(dir string) (string, error) {
	rows, err := measuredCosts(dir)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| folder | suite | figure | build | cells | cell-seconds | design | evaluations | invocations | wall time |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %.0f | %.0f | %.0f | %d | %s |\n", r.folder, r.suite, r.figure, r.build,
			len(r.cellSeconds), totalSeconds(r.cellSeconds), r.design, r.eval, r.invocations, wallText(r.wall))
	}
	b.WriteString("\nTotals per folder and suite (a cell shared by two figures counted once):\n\n")
	b.WriteString("| folder | suite | build | figures | distinct cells | cell-seconds | wall time (sum over invocations) |\n|---|---|---|---|---|---|---|\n")
	for _, t := range costTotals(rows) {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %.0f | %s |\n", t.folder, t.suite, t.build, t.figures, t.cells, t.cellSeconds, wallText(t.wall))
	}
	return b.String(), nil
}

// buildAgreement renders, for every claim judged in dir (a folder of runs of the other build)
// and in ref, both verdicts side by side and how many agree.
func buildAgreement(dir, ref string) (string, error) {
	other, err := records.ReadFile[verdict.ClaimRow](filepath.Join(dir, "claims.csv"))
	if err != nil {
		return "", err
	}
	base, err := records.ReadFile[verdict.ClaimRow](filepath.Join(ref, "claims.csv"))
	if err != nil {
		return "", err
	}
	refManifests, err := readManifests(ref)
	if err != nil {
		return "", err
	}
	manifests, err := readManifests(dir)
	if err != nil {
		return "", err
	}
	byClaim := map[string]verdict.ClaimRow{}
	for _, c := range base {
		byClaim[c.Claim] = c
	}
	var b strings.Builder
	b.WriteString("| claim | figure | ")
	var refBuild, build string
	for _, c := range other {
		if c.Verdict == verdict.NotYetRun {
			continue
		}
		if m := manifests[c.Figure]; m != nil && build == "" {
			build = buildName(m)
		}
		if m := refManifests[c.Figure]; m != nil && refBuild == "" {
			refBuild = buildName(m)
		}
	}
	if build == "" || refBuild == "" {
		return "", fmt.Errorf("%s: no judged claim of a figure with a manifest in both %s and %s", dir, dir, ref)
	}
	fmt.Fprintf(&b, "%s | %s | same |\n|---|---|---|---|---|\n", refBuild, build)
	agree, n := 0, 0
	for _, c := range other {
		if c.Verdict == verdict.NotYetRun {
			continue
		}
		r, ok := byClaim[c.Claim]
		if !ok || r.Verdict == verdict.NotYetRun {
			continue
		}
		same := r.Verdict == c.Verdict
		if same {
			agree++
		}
		n++
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %v |\n", c.Claim, c.Figure, r.Verdict, c.Verdict, same)
	}
	fmt.Fprintf(&b, "\n%d of %d claims have the same verdict in both builds.\n", agree, n)
	return b.String(), nil
}

// suiteTotals is the line of expected times above the measured costs (docs/reproducing.md):
// for each suite committed in dir itself
// (not its subfolders), the wall time of its distinct cells at expectedWorkers workers on
// the committed machine, as -plan prints it there, and how -plan scales it to another.
func suiteTotals(dir string) (string, error) {
	rows, err := measuredCosts(dir)
	if err != nil {
		return "", err
	}
	var paper string
	var others []string
	builds := map[string]bool{}
	for _, t := range costTotals(rows) {
		if t.folder != "." {
			continue
		}
		noun := "figures"
		if t.figures == 1 {
			noun = "figure"
		}
		if t.suite == "paper" {
			paper = fmt.Sprintf("%s (the paper suite, %d %s)", wallText(t.expected), t.figures, noun)
		} else {
			others = append(others, fmt.Sprintf("%s suite (%d %s) %s", t.suite, t.figures, noun, wallText(t.expected)))
		}
		builds[t.build] = true
	}
	if paper == "" && len(others) == 0 {
		return "", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nExpected time of `./run_all.sh`: %s at -workers=%d on %s with the committed builds (%s), from the committed runs' cell times", paper, expectedWorkers, committedMachine, strings.Join(sortedKeys(builds), "; "))
	if len(others) > 0 {
		fmt.Fprintf(&b, "; the other committed suites: %s", strings.Join(others, "; "))
	}
	b.WriteString(". `-plan` prints these for your machine: it first runs one short cell per task whose committed time is known (a few seconds) and scales by how long they took (a pure-Go build, or a slower CPU, can take 2-3x).\n")
	return b.String(), nil
}

// runAllTime is the line below README's two commands: how long ./run_all.sh (the paper suite
// committed in dir itself) takes at expectedWorkers workers on the committed machine, as
// suiteTotals gives it, to the minute, and how to have it for another machine.
func runAllTime(dir string) (string, error) {
	rows, err := measuredCosts(dir)
	if err != nil {
		return "", err
	}
	var times []string
	for _, t := range costTotals(rows) {
		if t.folder == "." && t.suite == "paper" {
			noun := "figures"
			if t.figures == 1 {
				noun = "figure"
			}
			times = append(times, fmt.Sprintf("about %s (the paper suite's %d %s with %s", minutesText(t.expected), t.figures, noun, t.build))
		}
	}
	if len(times) == 0 {
		return "", fmt.Errorf("%s: no committed run of the paper suite to time ./run_all.sh by", dir)
	}
	where := fmt.Sprintf(", at -workers=%d on %s, from the committed runs' cell times)", expectedWorkers, committedMachine)
	return fmt.Sprintf("Expected time of `./run_all.sh` on %d cores: %s; a pure-Go build, or a slower CPU, can take 2-3x, and `./run_all.sh -plan` estimates it for your machine (a few seconds after the build) and runs no figure.\n",
		expectedWorkers, strings.Join(times, where+"; ")+where), nil
}

// minutesText is seconds as a duration to the minute ("1h31m"), or to the second below a
// minute.
func minutesText(seconds float64) string {
	d := time.Duration(seconds+0.5) * time.Second
	if d < time.Minute {
		return d.String()
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}

// ownTimeFigures are the figures whose methods' own time the own-time table reports: where
// the baselines run beside DP-GIBO.
var ownTimeFigures = []string{"fig-peers", "fig-private", "fig2a"}

// ownTimeGoal is the target share of a method's own time (design seconds over cell seconds)
// on the tasks whose evaluations are not trivially cheap (svr, gpreg): 0.10, and 0.25 for
// GP-UCB and DP-UCB, whose GP over every point so far is inherent. Group LASSO's evaluations
// take microseconds, so any method's own time dominates there and no goal is set.
func ownTimeGoal(task, method string) (float64, bool) {
	if task != "svr" && task != "gpreg" {
		return 0, false
	}
	if m, ok := registry.Lookup(method); ok {
		switch m.(type) {
		case bo.UCB, bo.DPUCB:
			return 0.25, true
		}
	}
	return 0.10, true
}

// ownTimeTable renders, for each method of ownTimeFigures committed in dir, by task and d:
// the runs, the median seconds of a run and of its own part, and the share of own time in
// the cell-seconds (sum of design seconds over sum of total seconds) against ownTimeGoal.
func ownTimeTable(dir string) (string, error) {
	timings, err := records.ReadTimings(dir)
	if err != nil {
		return "", err
	}
	type key struct {
		figure, task string
		d            int
		method       string
	}
	type acc struct {
		total, design []float64
	}
	groups := map[key]*acc{}
	var keys []key
	for _, t := range timings {
		for _, fig := range strings.Split(t.Figures, ";") {
			if !slices.Contains(ownTimeFigures, fig) {
				continue
			}
			k := key{fig, t.Task, t.D, t.Method}
			if groups[k] == nil {
				groups[k] = &acc{}
				keys = append(keys, k)
			}
			groups[k].total = append(groups[k].total, t.TotalSeconds)
			groups[k].design = append(groups[k].design, t.DesignSeconds)
		}
	}
	if len(keys) == 0 {
		return "", fmt.Errorf("%s: no timings of %s", dir, strings.Join(ownTimeFigures, ", "))
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(slices.Index(ownTimeFigures, a.figure), slices.Index(ownTimeFigures, b.figure)),
			cmp.Compare(a.task, b.task), cmp.Compare(a.d, b.d), cmp.Compare(a.method, b.method))
	})
	var b strings.Builder
	b.WriteString("| figure | task | d | method | runs | median seconds a run | median own seconds | own share | goal | met |\n|---|---|---|---|---|---|---|---|---|---|\n")
	met, goals := 0, 0
	for _, k := range keys {
		g := groups[k]
		share := floats.Sum(g.design) / floats.Sum(g.total)
		goalText, metText := "", ""
		if goal, ok := ownTimeGoal(k.task, k.method); ok {
			goals++
			goalText = fmt.Sprintf("%.2f", goal)
			metText = "no"
			if share <= goal {
				met++
				metText = "yes"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %.3g | %.3g | %.3f | %s | %s |\n", k.figure, k.task, k.d, k.method,
			len(g.total), stats.Median(g.total), stats.Median(g.design), share, goalText, metText)
	}
	fmt.Fprintf(&b, "\nOwn time within its goal: %d of %d method x task x d rows with a goal.\n", met, goals)
	return b.String(), nil
}
