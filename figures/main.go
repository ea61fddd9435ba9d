// Command figures draws every figure of the DP-GIBO paper from the experiment runner's CSV
// files alone (it never re-runs an experiment):
//
//	go run ./figures -in results -out results/figures
//	go run ./figures -in results -out results/figures -only=fig1,fig2a
//
// Each figure NAME.csv found in -in becomes NAME.png, NAME.svg and NAME.pdf in -out. The
// drawing code is in package dpgibo/figures/plotting. The statistics of every figure CSV in
// -in (summary.csv, comparisons.csv, claims.csv and statements.csv, package
// dpgibo/figures/verdict) are written into -out beside the drawings, so that -in is only
// read (figure CSVs may be NAME.csv or NAME.csv.gz); -verdicts=false skips them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"dpgibo/figures/plotting"
	"dpgibo/figures/verdict"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "figures:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "results", "directory holding the figure CSVs")
	out := fs.String("out", "", "directory to write the figures to (default IN/figures)")
	only := fs.String("only", "", "comma-separated figure names (default: every figure CSV in -in); known: "+strings.Join(plotting.Names(), ", "))
	quiet := fs.Bool("quiet", false, "do not list the files written")
	formats := fs.String("formats", strings.Join(plotting.Formats, ","), "comma-separated image formats to write")
	verdicts := fs.Bool("verdicts", true, "write summary.csv, comparisons.csv, claims.csv and statements.csv into -out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	if *out == "" {
		*out = *in + "/figures"
	}
	var names []string
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	files, err := plotting.RenderDirAs(*in, *out, names, strings.Split(*formats, ","))
	if err != nil {
		return err
	}
	if *verdicts {
		written, err := verdict.WriteTo(*in, *out)
		if err != nil {
			return fmt.Errorf("verdicts: %w", err)
		}
		files = append(files, written...)
	}
	if !*quiet {
		for _, f := range files {
			fmt.Fprintln(stdout, f)
		}
	}
	return nil
}
