package main

import (
	"bytes"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/figures/claims"
	"dpgibo/figures/outputs"
	"dpgibo/figures/plotting"
	"dpgibo/figures/studies"
	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
)

// README's generated section is exactly what reproduction/ gives: a result committed
// without regenerating README, or README edited by hand, fails here. An artefact check: it
// decodes and judges every committed folder.
func TestReadmeMatchesReproduction(t *testing.T) {
	artefacts.Check(t)
	t.Parallel() // reads and judges reproduction/ on a core of its own
	root := filepath.Join("..", "..")
	for file, path := range files(filepath.Join(root, "README.md"), root) {
		old, updated, err := generate(path, root, file)
		if err != nil {
			t.Fatal(err)
		}
		if old != updated {
			t.Fatalf("%s's generated sections differ from reproduction/: run go run ./figures/readme", path)
		}
	}
	page, err := os.ReadFile(filepath.Join(root, ResultsPage))
	if err != nil {
		t.Fatal(err)
	}
	old := string(page)
	// Every judged claim appears in README with its verdict.
	claims, err := records.ReadFile[verdict.ClaimRow](filepath.Join("..", "..", "reproduction", "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range claims {
		if c.Verdict != verdict.NotYetRun && !strings.Contains(old, "`"+c.Claim+"`") {
			t.Errorf("claim %s is not in %s", c.Claim, ResultsPage)
		}
	}
}

// The committed verdicts are what the committed raw data give: judging reproduction/'s
// figure CSVs (NAME.csv.gz), and reproduction/purego/'s, anew writes the committed summary,
// comparisons, claims and statements byte for byte, and writes nothing into the folder; in
// the study folders, their judged table (design-equivalence.csv).
func TestCommittedVerdictsAreWhatTheRawDataGive(t *testing.T) {
	artefacts.Check(t)
	t.Parallel() // reads and judges reproduction/ on a core of its own
	studyDirs := []string{filepath.Join("reproduction", "design-equivalence"), filepath.Join("reproduction", "svr-precision"),
		filepath.Join("reproduction", "peers-own"), filepath.Join("reproduction", "ucb-revision"),
		filepath.Join("reproduction", "ucb-solves")}
	judged := append([]string{"reproduction", filepath.Join("reproduction", "purego"), filepath.Join("reproduction", "defaults"),
		filepath.Join("reproduction", "library-private")}, studyDirs...)
	// Every committed folder holding loss traces is judged here (which decodes every row of
	// every figure CSV; figures/verdict's and internal/records' tests read their headers).
	err := filepath.WalkDir(filepath.Join("..", "..", "reproduction"), func(path string, d fs.DirEntry, err error) error {
		if _, ok := records.CSVName(d.Name()); err != nil || d.IsDir() || !ok {
			return err
		}
		if header, err := records.Header(path); err == nil && records.HasRequired[records.Row](header) {
			if rel, _ := filepath.Rel(filepath.Join("..", ".."), filepath.Dir(path)); !slices.Contains(judged, rel) {
				t.Errorf("%s holds loss traces (%s) and is not judged here", rel, d.Name())
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range judged {
		dir := filepath.Join("..", "..", rel)
		if _, err := os.Stat(dir); rel != "reproduction" && err != nil {
			continue // the pure-Go and library-study folders are committed once their runs are
		}
		before, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if _, err := outputs.WriteTo(dir, out); err != nil {
			t.Fatal(err)
		}
		names := verdict.Files
		if slices.Contains(studyDirs, rel) {
			names = nil
		}
		for _, extra := range []string{studies.EquivalenceFile, studies.DefaultsFile, studies.LibraryPrivateFile, studies.LibraryPrivateRulesFile} {
			if _, err := os.Stat(filepath.Join(dir, extra)); err == nil {
				names = append(names, extra)
			}
		}
		for _, name := range names {
			want, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(out, name))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s/%s is not what the committed raw data give: run go run ./figures -in %s -out DIR and copy the verdict files", rel, name, rel)
			}
		}
		after, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before) {
			t.Errorf("judging wrote into %s/: %d entries before, %d after", rel, len(before), len(after))
		}
	}
}

// The controls hold on the committed data: no reproduced margin claim has a do-nothing
// control that is not refuted, and no reproduced claim is also reproduced by a method it is
// contrasted with. (A counted margin claim whose control is not refuted, because its method
// did not move from theta0, is inconclusive: logged here and shown in its evidence.)
func TestCommittedClaimsCanFail(t *testing.T) {
	claims, err := records.ReadFile[verdict.ClaimRow](filepath.Join("..", "..", "reproduction", "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	controls, refuted := 0, 0
	for _, c := range claims {
		if c.ControlP.Valid {
			controls++
			if c.ControlP.Value <= verdict.Alpha {
				refuted++
			} else {
				if c.Verdict == verdict.Reproduced {
					t.Errorf("claim %s is reproduced though doing nothing passes it too (control p x k = %g)", c.Claim, c.ControlP.Value)
				}
				t.Logf("claim %s: do-nothing control not refuted (p x k = %g), verdict %s", c.Claim, c.ControlP.Value, c.Verdict)
			}
		}
		if strings.Contains(c.Specificity, ": yes") && c.Verdict == verdict.Reproduced {
			t.Errorf("claim %s is reproduced though a contrasted method reproduces it too (%s)", c.Claim, c.Specificity)
		}
	}
	if controls == 0 {
		t.Error("no margin claim judged in reproduction/")
	}
	t.Logf("%d of %d do-nothing controls refuted", refuted, controls)
}

func TestCheckFailsOnAStaleReadme(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	stale := func(file string) string {
		var b strings.Builder
		b.WriteString("intro\n")
		for _, s := range Sections() {
			if s.File == file {
				b.WriteString(s.Begin() + "\nhand-written numbers\n" + ReportEnd + "\nbetween\n")
			}
		}
		b.WriteString("outro\n")
		return b.String()
	}
	for file, path := range files(readme, dir) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(stale(file)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	args := []string{"-readme", readme, "-root", root, "-pages", dir}
	// An empty root: the sections' bodies from no results, which differ from the hand-written
	// ones all the same (the committed folders' bodies are the artefact checks').
	if err := run(append([]string{"-check"}, args...), os.Stderr); err == nil || !strings.Contains(err.Error(), "out of date") {
		t.Fatalf("-check on a hand-edited section: %v, want out of date", err)
	}
	if err := run(args, os.Stderr); err != nil {
		t.Fatal(err)
	}
	if err := run(append([]string{"-check"}, args...), os.Stderr); err != nil {
		t.Fatalf("after rewriting: %v", err)
	}
	for _, path := range files(readme, dir) {
		b, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(b), "intro\n") || !strings.HasSuffix(string(b), "\noutro\n") || strings.Contains(string(b), "hand-written") {
			t.Fatalf("%s: the text around the sections changed, or a hand-written body survived", path)
		}
	}
	if err := os.WriteFile(readme, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(args, os.Stderr); err == nil || !strings.Contains(err.Error(), "no generated section") {
		t.Fatalf("README without markers: %v", err)
	}
}

// Direction on the committed data: every claim "A lower than B" restated as "B higher than
// A" (and the reverse), the rest unchanged, gets the same verdict and p-values.
func TestCommittedVerdictsMirrorWhenSidesSwap(t *testing.T) {
	artefacts.Check(t)
	t.Parallel() // reads and judges reproduction/ on a core of its own
	res, err := verdict.ReadDir(filepath.Join("..", "..", "reproduction"))
	if err != nil {
		t.Fatal(err)
	}
	statements := claims.Statements()
	swapped := make([]claims.Statement, len(statements))
	changed := 0
	for i, st := range statements {
		st.Claims = slices.Clone(st.Claims)
		for j, c := range st.Claims {
			switch c.Kind {
			case claims.Lower:
				c.Kind = claims.Higher
			case claims.Higher:
				c.Kind = claims.Lower
			default:
				continue
			}
			c.A, c.B = c.B, c.A
			st.Claims[j] = c
			changed++
		}
		swapped[i] = st
	}
	want, _, _, err := verdict.Judge(res, statements)
	if err != nil {
		t.Fatal(err)
	}
	got, _, _, err := verdict.Judge(res, swapped)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i].Verdict != want[i].Verdict || got[i].PValue != want[i].PValue || got[i].POppositeHolm != want[i].POppositeHolm {
			t.Errorf("claim %s: %s (p %v) with the sides swapped, %s (p %v) as declared", want[i].Claim, got[i].Verdict, got[i].PValue, want[i].Verdict, want[i].PValue)
		}
	}
	if changed == 0 {
		t.Fatal("no directional claim to swap")
	}
}

// The committed figure PNGs are what the committed raw data render to, pixel for pixel (the
// encoder's bytes may differ between Go releases; the picture may not), and every committed
// figure CSV has its PNG.
func TestCommittedFiguresAreWhatTheRawDataRender(t *testing.T) {
	artefacts.Check(t)
	t.Parallel() // reads and judges reproduction/ on a core of its own
	root := filepath.Join("..", "..")
	out := t.TempDir()
	files, err := plotting.RenderDirAs(filepath.Join(root, "reproduction"), out, nil, []string{"png"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		want, err := os.ReadFile(filepath.Join(root, FiguresDir, name))
		if err != nil {
			t.Errorf("%s: %v (render it: go run ./figures -in reproduction -out %s -formats png -verdicts=false)", name, err, FiguresDir)
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !samePixels(t, got, want) {
			t.Errorf("%s/%s is not what reproduction/ renders to", FiguresDir, name)
		}
	}
	committed, err := filepath.Glob(filepath.Join(root, FiguresDir, "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	if len(committed) != len(files) {
		t.Errorf("%d PNGs committed in %s, %d rendered", len(committed), FiguresDir, len(files))
	}
}

// samePixels reports whether two PNG files hold the same picture: the same bytes, or two
// encodings of the same pixels.
func samePixels(t *testing.T, a, b []byte) bool {
	t.Helper()
	if bytes.Equal(a, b) {
		return true
	}
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				return false
			}
		}
	}
	return true
}

// The committed equivalence studies (the design study, the svr precision study) are what
// their committed raw runs give.
func TestCommittedDesignStudyIsWhatItsRunsGive(t *testing.T) {
	artefacts.Check(t)
	t.Parallel() // reads and judges reproduction/ on a core of its own
	judged := 0
	for _, s := range Sections() {
		if !s.Equivalence {
			continue
		}
		dir := filepath.Join("..", "..", s.Dir)
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			continue // not run yet; the section says so
		}
		judged++
		out := t.TempDir()
		if _, err := outputs.WriteTo(dir, out); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, studies.EquivalenceFile))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, studies.EquivalenceFile))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s/%s is not what its raw runs give", s.Dir, studies.EquivalenceFile)
		}
	}
	if judged == 0 {
		t.Error("no committed equivalence study")
	}
}
