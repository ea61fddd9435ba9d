// Command claimshistory writes reproduction/claims-history.csv: for every figure with
// declared claims, each claims hash (claims.Hash) its committed manifests have
// recorded and the one the code declares now, with the commit that declared it and whether
// that was before or after the figure's first committed results. It also writes
// reproduction/claim-history.csv, the same history claim by claim (claimHistory). It reads the
// repository's git history (run it in a clone with history); README's generator and the
// tests read only the tables it writes, never git:
//
//	go run ./figures/claimshistory            # rewrite both tables
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strings"

	"dpgibo/figures/claims"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "claimshistory:", err)
		os.Exit(1)
	}
}

// sharesRuns maps a figure to the figure whose runs it repeats with one change: fig2a-b3 is
// fig2a with DP-GIBO at B = 3, the clip of fig2a's first runs.
var sharesRuns = map[string]string{"fig2a-b3": "fig2a"}

func git(args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func run(args []string) error {
	flags := flag.NewFlagSet("claimshistory", flag.ContinueOnError)
	dir := flags.String("dir", "reproduction", "folder of the committed results (in the repository)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	head, err := git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	head = strings.TrimSpace(head)
	if status, err := git("status", "--porcelain", "--", "figures/claims"); err != nil {
		return err
	} else if status != "" {
		return errors.New("figures/claims has uncommitted changes: commit the claims first, so that the table names the commit that declares them")
	}
	// A hash already in the table keeps the commit that declared it there: the code of that
	// commit had the claims, and a later regeneration must not move the declaration forward.
	declaredAt := map[string]string{}
	if old, err := records.ReadFile[records.ClaimsHistory](*dir + "/claims-history.csv"); err == nil {
		for _, r := range old {
			declaredAt[r.Figure+" "+r.ClaimsHash] = r.DeclaredCommit
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	declared := func(fig, hash, otherwise string) string {
		return cmp.Or(declaredAt[fig+" "+hash], otherwise)
	}
	statements := claims.Statements()
	var rows []records.ClaimsHistory
	for _, fig := range claims.Figures(statements) {
		// The first results are the first commit of any of the figure's files: its raw CSV,
		// timings or manifest (early runs committed timings and verdicts before raw data).
		// A figure that reruns another's curves has that figure's first results too.
		paths := []string{"--"}
		for _, f := range []string{fig, sharesRuns[fig]} {
			if f != "" {
				paths = append(paths, *dir+"/"+f+".csv", *dir+"/"+f+".csv.gz", *dir+"/timings-"+f+".csv", *dir+"/manifest-"+f+".json")
			}
		}
		first, err := git(append([]string{"log", "--reverse", "--format=%H"}, paths...)...)
		if err != nil {
			return err
		}
		firstResult, _, _ := strings.Cut(strings.TrimSpace(first), "\n")
		commits, err := git("log", "--reverse", "--format=%H", "--", *dir+"/manifest-"+fig+".json")
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, c := range strings.Fields(commits) {
			text, err := git("show", c+":"+*dir+"/manifest-"+fig+".json")
			if err != nil {
				continue // deleted in that commit
			}
			var m runinfo.Manifest
			if err := json.Unmarshal([]byte(text), &m); err != nil {
				return fmt.Errorf("manifest-%s.json at %s: %w", fig, c, err)
			}
			h := m.ClaimsHashes[fig]
			if h == "" || seen[h] {
				continue
			}
			seen[h] = true
			rows = append(rows, row(fig, h, declared(fig, h, m.Commit), c, firstResult))
		}
		if h := claims.Hash(fig, statements); !seen[h] {
			rows = append(rows, row(fig, h, declared(fig, h, head), "", firstResult))
		}
	}
	data, err := records.Marshal(rows)
	if err != nil {
		return err
	}
	if err := records.WriteFileAtomic(*dir+"/claims-history.csv", data); err != nil {
		return err
	}
	perClaim, err := claimHistory(*dir, head, statements, rows)
	if err != nil {
		return err
	}
	if data, err = records.Marshal(perClaim); err != nil {
		return err
	}
	return records.WriteFileAtomic(*dir+"/claim-history.csv", data)
}

// claimHistory is the history claim by claim. A claim version (ID and claims.ClaimHash)
// already in dir/claim-history.csv keeps its row; a claim whose hash changed keeps its old
// row, marked superseded by the claim's ID, and gains a row declared at head. A claim not in
// the table yet is placed by the figure-level history and the committed verdicts: it was
// declared with the first of its figure's claims hashes whose results commit's dir/claims.csv
// judges it with the test and margin the current verdicts show, and is before or after the
// figure's first results as that hash is; when no committed verdicts match, with the figure's
// current hash; when the current verdicts do not judge it yet, at head. A margin also moves
// when more seeds move G0, so a claim may read "after" that was declared before: the placement
// errs late, never early.
func claimHistory(dir, head string, statements []claims.Statement, figureRows []records.ClaimsHistory) ([]records.ClaimHistory, error) {
	old, err := records.ReadFile[records.ClaimHistory](dir + "/claim-history.csv")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// judged maps claim IDs to "figure test margin" in the verdicts at commit c ("" for the
	// working tree's).
	verdicts := map[string]map[string]string{}
	judged := func(c string) (map[string]string, error) {
		if v, ok := verdicts[c]; ok {
			return v, nil
		}
		var text string
		if c == "" {
			b, err := os.ReadFile(dir + "/claims.csv")
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			text = string(b)
		} else if text, err = git("show", c+":"+dir+"/claims.csv"); err != nil {
			text = "" // no verdicts committed there
		}
		v := map[string]string{}
		if text != "" {
			rows, err := records.Unmarshal[claimRow](strings.NewReader(text))
			if err != nil {
				return nil, fmt.Errorf("claims.csv at %q: %w", c, err)
			}
			for _, r := range rows {
				v[r.Claim] = r.Figure + " " + r.Test + " " + r.Margin
			}
		}
		verdicts[c] = v
		return v, nil
	}
	current, err := judged("")
	if err != nil {
		return nil, err
	}
	var out []records.ClaimHistory
	for _, st := range statements {
		for _, c := range st.Claims {
			h := claims.ClaimHash(c)
			var mine []records.ClaimHistory
			for _, r := range old {
				if r.Claim == c.ID {
					mine = append(mine, r)
				}
			}
			raised := ""
			for _, r := range claims.SeedRaises {
				if r.Reads(c) {
					raised = fmt.Sprintf("%s: %d to %d seeds after results", r.Figure, r.From, r.To)
				}
			}
			if i := slices.IndexFunc(mine, func(r records.ClaimHistory) bool { return r.ClaimHash == h }); i >= 0 {
				mine[i].SeedsRaised = raised
				out = append(out, mine...)
				continue
			}
			for i := range mine {
				mine[i].SupersededBy = cmp.Or(mine[i].SupersededBy, c.ID)
			}
			out = append(out, mine...)
			row := records.ClaimHistory{Claim: c.ID, Figure: c.Figure, ClaimHash: h, DeclaredCommit: head, Declared: "before"}
			var figRows []records.ClaimsHistory
			for _, f := range figureRows {
				if f.Figure == c.Figure {
					figRows = append(figRows, f)
				}
			}
			if len(figRows) > 0 && figRows[0].FirstResultCommit != "" {
				row.Declared = "after"
			}
			fp, isJudged := current[c.ID]
			if len(mine) == 0 && isJudged && len(figRows) > 0 {
				last := figRows[len(figRows)-1]
				row.DeclaredCommit, row.Declared = last.DeclaredCommit, last.Declared
				for _, f := range figRows {
					if f.ResultsCommit == "" {
						continue
					}
					v, err := judged(f.ResultsCommit)
					if err != nil {
						return nil, err
					}
					if v[c.ID] == fp {
						row.DeclaredCommit, row.Declared = f.DeclaredCommit, f.Declared
						break
					}
				}
			}
			row.SeedsRaised = raised
			out = append(out, row)
		}
	}
	return out, nil
}

// claimRow is what claimHistory reads of a committed claims.csv.
type claimRow struct {
	Claim  string `csv:"claim" records:"required"`
	Figure string `csv:"figure" records:"required"`
	Test   string `csv:"test"`
	Margin string `csv:"margin"`
}

// row is one claims hash of fig: declared in the code at declared, first recorded by the
// results committed at results ("" when no committed run recorded it yet).
func row(fig, hash, declared, results, firstResult string) records.ClaimsHistory {
	when := "before"
	if firstResult != "" && results != firstResult {
		when = "after"
	}
	return records.ClaimsHistory{Figure: fig, ClaimsHash: hash, DeclaredCommit: declared, ResultsCommit: results,
		FirstResultCommit: firstResult, Declared: when}
}
