// Command readme rewrites the generated sections of README.md, docs/results.md and
// docs/audit.md from the committed results under reproduction/ (every suite's summary.csv,
// claims.csv, statements.csv, timings and manifests; the audit's and the theory sweep's
// reports in reproduction/audit and reproduction/theory), so that every number and verdict
// the documentation states comes from a file:
//
//	go run ./figures/readme                 # rewrite README.md and the docs pages from reproduction/
//	go run ./figures/readme -check          # exit 1 if either is not what reproduction/ gives
//
// Each section lies between its Begin line and ReportEnd.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"dpgibo/internal/records"
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

// generate returns the text of file (README.md when its sections have File "", else the
// named page) and the same text with every generated section of that file rewritten from the
// results under root (the repository root).
func generate(path, root, file string) (old, updated string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	updated = string(b)
	for _, s := range Sections() {
		if s.File != file {
			continue
		}
		body, err := renderedBody(s, root)
		if err != nil {
			return "", "", fmt.Errorf("reading %s: %w", s.Dir, err)
		}
		if updated, err = RewriteSection(updated, s, body); err != nil {
			return "", "", fmt.Errorf("%s: %w", path, err)
		}
	}
	return string(b), updated, nil
}

// renderedBodies holds the sections rendered so far by this process, by section (all its
// fields) and root:
// the committed results they are rendered from do not change while it runs, and a test (or
// -check then a rewrite) would otherwise read and judge them again for every call.
var renderedBodies sync.Map // [2]string{the section, absolute root} -> renderedBody's result

// renderedBody is s.Body(root), rendered once per process.
func renderedBody(s Section, root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return s.Body(root)
	}
	type result struct {
		body string
		err  error
	}
	key := [2]string{fmt.Sprintf("%#v", s), abs}
	if r, ok := renderedBodies.Load(key); ok {
		return r.(result).body, r.(result).err
	}
	body, err := s.Body(root)
	renderedBodies.Store(key, result{body, err})
	return body, err
}

// files returns the files with generated sections: the README at readme and each page under
// pages.
func files(readme, pages string) map[string]string {
	out := map[string]string{"": readme}
	for _, s := range Sections() {
		if s.File != "" {
			out[s.File] = filepath.Join(pages, s.File)
		}
	}
	return out
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("readme", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root holding reproduction/")
	readme := fs.String("readme", "README.md", "the README to rewrite")
	check := fs.Bool("check", false, "only check that the README matches; exit 1 if not")
	pages := fs.String("pages", "", "directory holding the generated pages (docs/results.md); default -root")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	if *pages == "" {
		*pages = *root
	}
	for file, path := range files(*readme, *pages) {
		old, updated, err := generate(path, *root, file)
		if err != nil {
			return err
		}
		if *check {
			if old != updated {
				return fmt.Errorf("%s is out of date with reproduction/: run go run ./figures/readme", path)
			}
			continue
		}
		if old != updated {
			if err := records.WriteFileAtomic(path, []byte(updated)); err != nil {
				return err
			}
		}
	}
	return nil
}
