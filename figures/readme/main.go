// Command readme rewrites README's generated sections from the committed results under
// reproduction/ (every suite's summary.csv, claims.csv, statements.csv, timings and
// manifests; the audit's and the theory sweep's reports in
// reproduction/audit and reproduction/theory), so that every number and verdict README
// states comes from a file:
//
//	go run ./figures/readme                 # rewrite README.md from reproduction/
//	go run ./figures/readme -check          # exit 1 if README.md is not what reproduction/ gives
//
// Each section lies between verdict.SectionBegin(dir) and verdict.ReportEnd.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"dpgibo/experiments/records"
	"dpgibo/figures/verdict"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(1)
	}
}

// generate returns the README text and the same text with every generated section rewritten
// from the results under root (the repository root).
func generate(readme, root string) (old, updated string, err error) {
	b, err := os.ReadFile(readme)
	if err != nil {
		return "", "", err
	}
	updated = string(b)
	for _, s := range verdict.Sections() {
		body, err := s.Body(root)
		if err != nil {
			return "", "", fmt.Errorf("reading %s: %w", s.Dir, err)
		}
		if updated, err = verdict.RewriteSection(updated, s.Dir, body); err != nil {
			return "", "", fmt.Errorf("%s: %w", readme, err)
		}
	}
	return string(b), updated, nil
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("readme", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root holding reproduction/")
	readme := fs.String("readme", "README.md", "the README to rewrite")
	check := fs.Bool("check", false, "only check that the README matches; exit 1 if not")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	old, updated, err := generate(*readme, *root)
	if err != nil {
		return err
	}
	if *check {
		if old != updated {
			return fmt.Errorf("%s is out of date with reproduction/: run go run ./figures/readme", *readme)
		}
		return nil
	}
	if old == updated {
		return nil
	}
	return records.WriteFileAtomic(*readme, []byte(updated))
}
