package runner_test

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/figures/claims"
	"dpgibo/internal/records"
)

// reproductionDirs are the committed result folders whose manifests must match the code:
// README's tables are generated from them (go run ./figures/readme).
var reproductionDirs = []string{filepath.Join("..", "..", "reproduction"), filepath.Join("..", "..", "reproduction", "design-equivalence"),
	filepath.Join("..", "..", "reproduction", "purego"), filepath.Join("..", "..", "reproduction", "defaults"),
	filepath.Join("..", "..", "reproduction", "svr-precision"), filepath.Join("..", "..", "reproduction", "library-private")}

// Every committed manifest names a configuration hash; the code's suite of that name (and
// -only figure) must still hash to it, so that results of an older configuration cannot sit
// beside green tests. Seeds are part of the hash: a committed run used the suite's seeds.
func TestReproductionManifestsMatchTheCode(t *testing.T) {
	// Claims changed after a figure's run are allowed only when the history of claims
	// records the change (declared after the results, with the commit that declared them).
	hist, err := records.ReadFile[records.ClaimsHistory](filepath.Join("..", "..", "reproduction", "claims-history.csv"))
	if err != nil {
		t.Fatal(err)
	}
	history := map[string]bool{}
	for _, h := range hist {
		history[h.Figure+" "+h.ClaimsHash] = true
	}
	checked := 0
	for _, dir := range reproductionDirs {
		paths, err := filepath.Glob(filepath.Join(dir, "manifest*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var m runner.Manifest
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			figs, err := suites.Figures(m.Suite, m.Only)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			source := m.DataSource
			source = cmp.Or(source, "stand-in")
			p, err := runner.MakePlan(m.Suite, figs, source)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if got := runner.ConfigHash(m.Suite, p); got != m.ConfigHash {
				t.Errorf("%s: config hash %s, but the code's -suite=%s -only=%s hashes to %s: the committed results are stale; rerun the figure and go run ./figures/readme",
					path, m.ConfigHash[:12], m.Suite, m.Only, got[:12])
			}
			for _, f := range figs {
				want := claims.Hash(f.Name, claims.Statements())
				if got := m.ClaimsHashes[f.Name]; got != want && !history[f.Name+" "+want] {
					t.Errorf("%s: figure %s was run with claims hash %q, but the declared claims hash to %q, and reproduction/claims-history.csv does not record that they changed after the run (go run ./figures/claimshistory after committing them, or rerun the figure)",
						path, f.Name, got, want)
				}
			}
			if pure := filepath.Base(dir) == "purego"; pure != (m.BLAS == "gonum") {
				t.Errorf("%s: computed with BLAS %q; reproduction/purego/ holds the pure-Go build's runs (gonum), the other folders OpenBLAS's", path, m.BLAS)
			}
			if m.Dirty {
				t.Errorf("%s: the run was made from a dirty work tree (commit %s)", path, m.Commit)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no committed manifest under reproduction/")
	}
}

// The history claim by claim (reproduction/claim-history.csv, go run ./figures/claimshistory)
// has every declared claim's current version once, under its own hash, on its figure, before
// or after that figure's first results; fig-private-select's claims, declared before its first
// run, read "before", and the post-hoc statements' claims "after".
func TestClaimHistoryCoversEveryClaim(t *testing.T) {
	hist, err := records.ReadFile[records.ClaimHistory](filepath.Join("..", "..", "reproduction", "claim-history.csv"))
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]records.ClaimHistory{}
	for _, h := range hist {
		if h.Declared != "before" && h.Declared != "after" {
			t.Errorf("%s: declared %q", h.Claim, h.Declared)
		}
		if h.SupersededBy != "" {
			continue
		}
		if _, dup := current[h.Claim]; dup {
			t.Errorf("%s has two current versions", h.Claim)
		}
		current[h.Claim] = h
	}
	n := 0
	for _, st := range claims.Statements() {
		late := st.Late()
		for _, c := range st.Claims {
			n++
			h, ok := current[c.ID]
			switch {
			case !ok:
				t.Errorf("%s is not in claim-history.csv (go run ./figures/claimshistory after committing the claims)", c.ID)
			case h.ClaimHash != claims.ClaimHash(c) || h.Figure != c.Figure:
				t.Errorf("%s: history has hash %.12s on %s, the code %.12s on %s", c.ID, h.ClaimHash, h.Figure, claims.ClaimHash(c), c.Figure)
			case c.Figure == "fig-private-select" && !late && h.Declared != "before":
				t.Errorf("%s, declared before fig-private-select's first run, reads %q", c.ID, h.Declared)
			case late && h.Declared != "after":
				t.Errorf("%s, a post-hoc statement's claim, reads %q", c.ID, h.Declared)
			}
		}
	}
	if len(current) != n {
		t.Errorf("claim-history.csv has %d current claims, the code declares %d", len(current), n)
	}
}
