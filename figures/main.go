// Command figures draws every figure of the DP-GIBO paper from the experiment runner's CSV
// files alone (it never re-runs an experiment):
//
//	go run ./figures -in results -out results/figures
//	go run ./figures -in results -out results/figures -only=fig1,fig2a
//
// Each figure NAME.csv found in -in becomes NAME.png, NAME.svg and NAME.pdf in -out. The
// drawing code is in package dpgibo/figures/plotting. The statistics of every figure CSV in
// -in (summary.csv, comparisons.csv, claims.csv and statements.csv, and the studies'
// tables; package dpgibo/figures/outputs) are written into -out beside the drawings, so that -in is only
// read (figure CSVs may be NAME.csv or NAME.csv.gz); -verdicts=false skips them.
//
// Every input is read and checked (package dpgibo/internal/records: required columns,
// numbers that parse, finite losses, intact gzip), every figure drawn and every verdict
// computed before the first file is written. A bad input is one line on stderr naming the
// file (and the line and column of a bad cell), exit status 1, and -out left as it was.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"dpgibo/figures/outputs"
	"dpgibo/figures/plotting"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

func main() {
	// The figures and verdicts from committed CSVs are the same bytes on every machine and
	// build: the fitted rates' least squares run on gonum's Go code even in a build with the
	// tag openblas (which the packages this command imports would otherwise switch on).
	blasinfo.UsePureGo()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it returns the exit status, 0 on success (or -h), 1 after printing
// one line "figures: ERROR" to stderr.
func run(args []string, stdout, stderr io.Writer) int {
	err := figures(args, stdout, stderr)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "figures:", err)
	return 1
}

// figures reads and checks every input, draws every figure and computes the verdicts, and
// only then writes into -out: a bad input leaves -out as it was.
func figures(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "results", "directory holding the figure CSVs")
	out := fs.String("out", "", "directory to write the figures to (default IN/figures)")
	only := fs.String("only", "", "comma-separated figure names (default: every figure CSV in -in); known: "+strings.Join(plotting.Names(), ", "))
	quiet := fs.Bool("quiet", false, "do not list the files written")
	formats := fs.String("formats", strings.Join(plotting.Formats, ","), "comma-separated image formats to write")
	verdicts := fs.Bool("verdicts", true, "write summary.csv, comparisons.csv, claims.csv and statements.csv into -out")
	version := fs.Bool("version", false, "print the module version, the commit, the build tags and GOEXPERIMENT of this build, and exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	if *version {
		_, err := fmt.Fprint(stdout, runinfo.Version())
		return err
	}
	if *out == "" {
		*out = *in + "/figures"
	}
	var names []string
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	unfinished := runinfo.ReadUnfinished(*in)
	inputs, err := plotting.Load(*in, names)
	if err != nil {
		if len(unfinished) > 0 {
			return fmt.Errorf("%v; %s", err, describeUnfinished(unfinished))
		}
		return err
	}
	if len(unfinished) > 0 {
		fmt.Fprintf(stderr, "figures: note: %s; drawing the figures whose CSVs are there\n", describeUnfinished(unfinished))
	}
	drawn, err := inputs.Draw(strings.Split(*formats, ","))
	if err != nil {
		return err
	}
	if *verdicts {
		staged, err := outputs.Files(*in)
		if err != nil {
			return fmt.Errorf("verdicts: %w", err)
		}
		drawn = append(drawn, staged...)
	}
	// Everything is read, checked and computed: write.
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	written, err := records.WriteFiles(*out, drawn)
	if err != nil {
		return err
	}
	if !*quiet {
		for _, f := range written {
			fmt.Fprintln(stdout, f)
		}
	}
	return nil
}

// describeUnfinished says which runs of the input directory are unfinished, and how to
// complete each.
func describeUnfinished(runs []runinfo.Unfinished) string {
	lines := make([]string, len(runs))
	for i, u := range runs {
		lines[i] = u.Describe()
	}
	return strings.Join(lines, "; ")
}
