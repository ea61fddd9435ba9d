package verdict

import (
	"fmt"
	"strings"

	"dpgibo/figures/claims"
)

// StatementRow is one judged statement (statements.csv).
type StatementRow struct {
	StatementID string `csv:"statement_id"`
	// Statement is the statement in words; SourceSection and SourceSentence as in ClaimRow.
	Statement      string `csv:"statement"`
	SourceSection  string `csv:"source_section"`
	SourceSentence string `csv:"source_sentence"`
	Verdict        string `csv:"verdict"`
	// Claims lists the ids of the counted claims, then "aside:" and the others.
	Claims string `csv:"claims"`
	// Reason says why a statement is not testable, or which claims decided it.
	Reason string `csv:"reason"`
	// Substitute names the substitute data the verdict rests on (Statement.Substitute).
	Substitute string `csv:"substitute"`
	// Repeats names the statement this one restates (Statement.Repeats).
	Repeats string `csv:"repeats"`
	// StandInDecides says the verdict rests on the stand-in: judged again without its claims
	// on stand-in data (ClaimRow.StandIn), the statement would take another verdict. Only such
	// a statement is tagged and counted "(stand-in)".
	StandInDecides bool `csv:"stand_in_decides"`
	// Conditions are the project's design choices the verdict rests on (claims.Conditions
	// of its counted claims, and the stand-in when it decides), joined by "; ".
	Conditions string `csv:"conditions"`
	// PostHocOf names the declared statement this row is a post-hoc reading of (empty for a
	// declared statement); Reading is the statement's reading in words.
	PostHocOf string `csv:"post_hoc_of"`
	// PostHoc says the statement was declared after its results (claims.Statement.PostHoc).
	PostHoc bool   `csv:"post_hoc"`
	Reading string `csv:"reading"`
	// Undecidable, for an inconclusive statement, names the structural reason no number of
	// seeds can decide it as declared (empty otherwise): a counted claim whose do-nothing
	// control cannot be refuted (ControlP = 1: a method that stays at its start satisfies
	// the claim as well, so the claim can never be reproduced), or no claim specific to the
	// statement (a contrasted method reproduces them too, and more seeds only confirm it).
	Undecidable string `csv:"undecidable"`
	// SeedsRaised names the declared seed raise (claims.SeedRaises) whose curves a counted
	// claim of the statement reads: the figure, the curves and the seeds before and after.
	SeedsRaised string `csv:"seeds_raised"`
	// SupersededVerdict is the verdict the seeds before that raise gave, when it differs
	// from Verdict (empty otherwise).
	SupersededVerdict string `csv:"superseded_verdict"`
}

// statementRow aggregates a statement's claim rows into its verdict, and says whether the
// verdict rests on its claims on stand-in data.
func statementRow(st claims.Statement, rows []ClaimRow) StatementRow {
	out := judgeStatement(st, rows)
	if out.Verdict == NotTestable {
		return out
	}
	var without []ClaimRow
	for _, r := range rows {
		if !r.StandIn {
			without = append(without, r)
		}
	}
	if len(without) < len(rows) {
		out.StandInDecides = judgeStatement(st, without).Verdict != out.Verdict
	}
	return out
}

// judgeStatement aggregates a statement's claim rows into its verdict.
func judgeStatement(st claims.Statement, rows []ClaimRow) StatementRow {
	out := StatementRow{StatementID: st.ID, Statement: st.Sentence, SourceSection: st.Source, Substitute: st.Substitute, Repeats: st.Repeats,
		PostHocOf: st.PostHocOf, PostHoc: st.PostHoc, Reading: st.Reading}
	if st.Paper() {
		out.SourceSentence = st.Sentence
	}
	if st.NotTestable != "" {
		out.Verdict, out.Reason = NotTestable, st.NotTestable
		return out
	}
	var counted, aside []string
	count := map[string]int{}
	for _, r := range rows {
		if !r.Counts {
			aside = append(aside, r.Claim)
			continue
		}
		counted = append(counted, r.Claim)
		count[r.Verdict]++
	}
	out.Claims = strings.Join(counted, " ")
	if len(aside) > 0 {
		out.Claims += " aside: " + strings.Join(aside, " ")
	}
	decided := len(counted) - count[NotSpecific]
	switch {
	case count[NotReproduced] > 0:
		out.Verdict = NotReproduced
		out.Reason = fmt.Sprintf("%d of %d claims not reproduced", count[NotReproduced], len(counted))
	case count[NotYetRun] > 0:
		out.Verdict = NotYetRun
		out.Reason = fmt.Sprintf("%d of %d claims have no committed run", count[NotYetRun], len(counted))
	case decided == 0:
		out.Verdict = Inconclusive
		out.Reason = "no claim is specific to the statement's subject"
	case count[Reproduced] == decided:
		out.Verdict = Reproduced
		out.Reason = fmt.Sprintf("all %d specific claims reproduced", decided)
	default:
		out.Verdict = Inconclusive
		out.Reason = fmt.Sprintf("%d of %d specific claims reproduced", count[Reproduced], decided)
	}
	if count[NotSpecific] > 0 {
		out.Reason += fmt.Sprintf("; %d not specific (a contrasted method reproduces them too), not counted", count[NotSpecific])
	}
	if out.Verdict == Inconclusive {
		out.Undecidable = undecidable(rows, decided)
	}
	return out
}

// undecidable names why an inconclusive statement cannot be decided as declared, or "".
func undecidable(rows []ClaimRow, decided int) string {
	var stuck []string
	for _, r := range rows {
		if r.Counts && r.Verdict == Inconclusive && r.ControlP.Valid && r.ControlP.Value >= 1 {
			stuck = append(stuck, r.Claim)
		}
	}
	switch {
	case len(stuck) > 0:
		return "do-nothing control cannot be refuted (a method at its start satisfies the claim too): " + strings.Join(stuck, ", ")
	case decided == 0:
		return "not specific at any n: a contrasted method reproduces every claim too"
	}
	return ""
}
