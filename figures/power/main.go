// Command power estimates how many seeds each figure needs for its statements to be decided.
// It reads committed results only (a reproduction folder: the figure CSVs, fstar.csv and
// timings-NAME.csv) and never runs an experiment.
//
// For each figure and each candidate number of seeds n it draws B bootstrap replicates of the
// figure: n seeds drawn with replacement from the committed ones, every curve of the figure
// taking its run of the drawn seed (so pairs stay pairs), the other figures as committed. Each
// replicate is judged like the committed results (Holm within the figure, every control), and
// the table gives, per statement with a counted claim on the figure, the share of replicates
// in which the statement is reproduced and not reproduced, their sum P(decided), and the
// cell-seconds n seeds of the whole figure cost at the committed timings' mean per seed:
//
//	go run ./figures/power -in reproduction -figures fig1,fig2b -n 20,50,100,200 -out power.csv
//
// The committed seeds are a pilot inside the final analysis: the runs that follow keep them
// and add seeds n0+1..n, so the n chosen from this table is part of the design, declared
// before those runs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"dpgibo/figures/claims"
	"dpgibo/figures/verdict"
	"dpgibo/internal/pool"
	"dpgibo/internal/records"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "power:", err)
		os.Exit(2)
	}
}

// Row is one line of the power table (power.csv): records.PowerRow, which README's
// generator reads.
type Row = records.PowerRow

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("power", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "reproduction", "folder of committed results (figure CSVs, fstar.csv, timings-NAME.csv)")
	figList := fs.String("figures", "", "comma-separated figures (default: every figure with claims found in -in)")
	nList := fs.String("n", "20,30,50,100,200", "comma-separated numbers of seeds to try beside the committed number (those above it)")
	replicates := fs.Int("replicates", 200, "bootstrap replicates per figure and n")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap's random stream")
	out := fs.String("out", "", "also write the table as CSV to this file")
	workers := fs.Int("workers", runtime.NumCPU(), "replicates judged at once (the table does not depend on it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *replicates < 1 {
		return fmt.Errorf("-replicates must be >= 1, got %d", *replicates)
	}
	ns, err := parseSeeds(*nList)
	if err != nil {
		return err
	}
	res, err := verdict.ReadDir(*in)
	if err != nil {
		return err
	}
	statements := claims.Statements()
	figs := claims.Figures(statements)
	if *figList != "" {
		figs = strings.Split(*figList, ",")
	}
	var rows []Row
	for _, fig := range figs {
		if !slices.Contains(res.Figures, fig) {
			return fmt.Errorf("-figures: no committed results of %q in %s", fig, *in)
		}
		perSeed, err := secondsPerSeed(*in, fig, res)
		if err != nil {
			return err
		}
		r, err := figurePower(res, statements, fig, ns, *replicates, *workers, *seed, perSeed)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
		fmt.Fprintf(stderr, "power: %s done\n", fig)
	}
	if err := printTable(stdout, rows); err != nil {
		return err
	}
	if *out != "" {
		data, err := records.Marshal(rows)
		if err != nil {
			return err
		}
		return records.WriteFileAtomic(*out, data)
	}
	return nil
}

func parseSeeds(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 {
			return nil, fmt.Errorf("-n: %q is not a number of seeds >= 2", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// seeds returns the sorted seeds of fig's runs.
func seeds(res *verdict.Results, fig string) []int {
	var out []int
	for _, c := range res.Curves {
		if c.Figure != fig {
			continue
		}
		for _, r := range c.Runs {
			if !slices.Contains(out, r.Seed) {
				out = append(out, r.Seed)
			}
		}
	}
	slices.Sort(out)
	return out
}

// secondsPerSeed is the committed timings' cell-seconds of fig divided by its seeds.
func secondsPerSeed(dir, fig string, res *verdict.Results) (float64, error) {
	path := filepath.Join(dir, "timings-"+fig+".csv")
	timings, err := records.ReadFile[records.Timing](path)
	if err != nil {
		return 0, fmt.Errorf("cost of %s: %w", fig, err)
	}
	total := 0.0
	for _, t := range timings {
		total += t.TotalSeconds
	}
	return total / float64(len(seeds(res, fig))), nil
}

// resample returns res with fig's curves replaced by n seeds drawn from drawn (indices into
// the committed seeds), renumbered 1..n; every curve takes the run of the drawn seed.
func resample(res *verdict.Results, fig string, committed []int, drawn []int) *verdict.Results {
	out := &verdict.Results{Figures: res.Figures, FStar: res.FStar}
	for _, c := range res.Curves {
		if c.Figure != fig {
			out.Curves = append(out.Curves, c)
			continue
		}
		bySeed := map[int]verdict.Run{}
		for _, r := range c.Runs {
			bySeed[r.Seed] = r
		}
		nc := *c
		nc.Runs = nil
		for i, k := range drawn {
			if r, ok := bySeed[committed[k]]; ok {
				r.Seed = i + 1
				nc.Runs = append(nc.Runs, r)
			}
		}
		out.Curves = append(out.Curves, &nc)
	}
	return out
}

// figurePower judges B replicates of fig at each n and returns one row per statement with a
// counted claim on fig and per n.
func figurePower(res *verdict.Results, statements []claims.Statement, fig string, ns []int, replicates, workers int, seed uint64, perSeed float64) ([]Row, error) {
	var touched []claims.Statement
	for _, st := range statements {
		for _, c := range st.Claims {
			if c.Figure == fig && c.Aside == "" {
				touched = append(touched, st)
				break
			}
		}
	}
	if len(touched) == 0 {
		return nil, nil
	}
	// Judge only the figures the touched statements read (their claims' and their refs'),
	// with every statement declared so that refs resolve.
	figureOf := map[string]string{}
	for _, st := range statements {
		for _, c := range st.Claims {
			figureOf[c.ID] = c.Figure
		}
	}
	needed := []string{fig}
	for _, st := range touched {
		for _, c := range st.Claims {
			needed = append(needed, c.Figure)
		}
		for _, id := range st.Refs {
			needed = append(needed, figureOf[id])
		}
	}
	res = &verdict.Results{Curves: res.Curves, FStar: res.FStar,
		Figures: slices.DeleteFunc(slices.Clone(res.Figures), func(f string) bool { return !slices.Contains(needed, f) })}
	judge := func(r *verdict.Results) (map[string]string, error) {
		_, sts, _, err := verdict.Judge(r, statements)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, s := range sts {
			out[s.StatementID] = s.Verdict
		}
		return out, nil
	}
	committedVerdicts, err := judge(res)
	if err != nil {
		return nil, err
	}
	committed := seeds(res, fig)
	// The committed number first (what the verdicts rest on today), then every larger n: the
	// runs keep the committed seeds, so fewer is not an option.
	tries := []int{len(committed)}
	for _, n := range ns {
		if n > len(committed) {
			tries = append(tries, n)
		}
	}
	var rows []Row
	for _, n := range tries {
		// Replicate b draws from its own stream (seed, n, b), so that the table does not
		// depend on how many replicates run at once.
		outcomes := make([]map[string]string, replicates)
		err := pool.Run(context.Background(), workers, replicates, func(_ context.Context, b int) error {
			rng := rand.New(rand.NewPCG(seed, uint64(n)<<32|uint64(b)))
			drawn := make([]int, n)
			for i := range drawn {
				drawn[i] = rng.IntN(len(committed))
			}
			verdicts, err := judge(resample(res, fig, committed, drawn))
			if err != nil {
				return fmt.Errorf("%s at %d seeds: %w", fig, n, err)
			}
			outcomes[b] = verdicts
			return nil
		})
		if err != nil {
			return nil, err
		}
		reproduced, refuted := make([]int, len(touched)), make([]int, len(touched))
		for _, verdicts := range outcomes {
			for i, st := range touched {
				switch verdicts[st.ID] {
				case verdict.Reproduced:
					reproduced[i]++
				case verdict.NotReproduced:
					refuted[i]++
				}
			}
		}
		for i, st := range touched {
			b := float64(replicates)
			rows = append(rows, Row{Figure: fig, StatementID: st.ID, Committed: committedVerdicts[st.ID],
				Seeds0: len(committed), Seeds: n, Replicates: replicates,
				PReproduced: float64(reproduced[i]) / b, PNotReproduced: float64(refuted[i]) / b,
				PDecided:    float64(reproduced[i]+refuted[i]) / b,
				CellSeconds: perSeed * float64(n), ExtraCellSeconds: perSeed * float64(max(0, n-len(committed)))})
		}
	}
	return rows, nil
}

func printTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tstatement\tcommitted\tseeds\tP(reproduced)\tP(not reproduced)\tP(decided)\tcell-seconds\textra")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s (%d)\t%d\t%.2f\t%.2f\t%.2f\t%.0f\t%.0f\n", r.Figure, r.StatementID, r.Committed, r.Seeds0,
			r.Seeds, r.PReproduced, r.PNotReproduced, r.PDecided, r.CellSeconds, r.ExtraCellSeconds)
	}
	return tw.Flush()
}
