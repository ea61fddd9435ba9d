package claims

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"dpgibo/experiments/algocfg"
)

// Statement is one clause of the paper that asserts a property of an experiment's results
// (or, with an empty Source, one of this project's own comparisons), with the claims that
// test it. Its verdict: reproduced iff every counted claim is; not reproduced iff any is;
// not yet run while a counted claim's figure has no committed run; inconclusive otherwise.
type Statement struct {
	// ID is unique, e.g. s4.1-tracks-across-d.
	ID string
	// Source is the paper's section ("Section 4.1", "Figure 1 caption", ...); empty for
	// the project's own statements.
	Source string
	// Sentence is the paper's words (LaTeX removed), or the project's statement.
	Sentence string
	// Claims test the statement. A claim with Aside set is shown and does not count.
	Claims []Claim
	// Refs are ids of claims declared under another statement that also test this one
	// (the paper says one thing twice); they count like the statement's own claims.
	Refs []string
	// NotTestable, when set, says why the statement cannot be tested here.
	NotTestable string
	// Substitute, when set, says on which substitute data (and setting) the counted claims
	// are judged, where the paper's data cannot be had here.
	Substitute string
	// Repeats, when set, is the ID of a statement this one restates (the paper says one thing
	// twice, resting on the same claims): it is judged and shown, and the tally counts the
	// two once.
	Repeats string
	// PostHoc marks a statement declared after the results it rests on: judged and shown,
	// tallied on a line of its own ("declared after the results"), never in the headline,
	// and, like a post-hoc reading, judged in a second pass so that its claims move no
	// declared verdict.
	PostHoc bool
	// PostHocOf, when set, makes this statement a reading of statement PostHocOf declared
	// after the results: it is judged and shown beside it and tallied on a line of its own,
	// and it never moves a declared verdict (its own claims are judged in a second pass, in
	// their figures' Holm families with the declared claims).
	PostHocOf string
	// Reading says, in words, which reading of the paper's sentence the claims test and why
	// (for a declared statement that has a post-hoc reading, why the declared one is kept).
	Reading string
}

// Paper reports whether the statement is the paper's.
func (s Statement) Paper() bool { return s.Source != "" }

// Late reports whether the statement was declared after its results: a post-hoc statement
// or a post-hoc reading.
func (s Statement) Late() bool { return s.PostHoc || s.PostHocOf != "" }

// Check rejects duplicate ids and malformed declarations.
func Check(sts []Statement) error {
	seenSt, seenCl := map[string]bool{}, map[string]bool{}
	for _, st := range sts {
		if st.ID == "" || seenSt[st.ID] {
			return fmt.Errorf("statement id %q empty or declared twice", st.ID)
		}
		seenSt[st.ID] = true
		if st.NotTestable != "" && len(st.Claims) > 0 {
			return fmt.Errorf("statement %s is not testable but has claims", st.ID)
		}
		if st.NotTestable == "" && len(st.Claims)+len(st.Refs) == 0 {
			return fmt.Errorf("statement %s has no claims and no reason why it is not testable", st.ID)
		}
		for _, cl := range st.Claims {
			if cl.ID == "" || seenCl[cl.ID] {
				return fmt.Errorf("claim id %q empty or declared twice", cl.ID)
			}
			seenCl[cl.ID] = true
			if cl.Figure == "" {
				return fmt.Errorf("claim %s names no figure", cl.ID)
			}
			if cl.Margin < 0 || (cl.Kind == Equivalent || cl.Kind == NotWorse) && cl.Margin == 0 {
				return fmt.Errorf("claim %s: a %v claim needs a positive margin", cl.ID, cl.Kind)
			}
		}
	}
	for _, st := range sts {
		for _, ref := range st.Refs {
			if !seenCl[ref] {
				return fmt.Errorf("statement %s refers to an undeclared claim %s", st.ID, ref)
			}
		}
		if st.Repeats != "" && (!seenSt[st.Repeats] || st.Repeats == st.ID) {
			return fmt.Errorf("statement %s repeats %q, which is not another declared statement", st.ID, st.Repeats)
		}
		if st.PostHocOf != "" {
			i := slices.IndexFunc(sts, func(o Statement) bool { return o.ID == st.PostHocOf })
			if i < 0 || sts[i].PostHocOf != "" || st.Reading == "" {
				return fmt.Errorf("statement %s is a post-hoc reading of %q, which must be a declared statement other than a reading, and must say its reading", st.ID, st.PostHocOf)
			}
		}
	}
	return nil
}

// claimRules names the judging rules that Hash pins beside the claims themselves.
const claimRules = "v2: attainability control (the better side of a directional margin claim at f*, p x k <= alpha, else inconclusive); " +
	"log-gap metric log(max((f - f*)/G0, 1e-3)); v1: margins in units of G0 = median(f(theta0) - f*); paired Wilcoxon within task, data and d " +
	"for one method or DP-GIBO vs GIBO, else Mann-Whitney; Holm per figure at alpha 0.05; " +
	"do-nothing control opposite p x k <= alpha; specificity p x k <= alpha; throughout: IUT over k(d+1)"

// pinnedClaim is the judged content of a claim (kinds, sides, metrics, margins, checkpoints,
// contrasts, whether it counts; not the wording), as Hash and ClaimHash encode it.
type pinnedClaim struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	A          Side     `json:"a"`
	B          Side     `json:"b"`
	Margin     float64  `json:"margin"`
	Metric     string   `json:"metric"`
	Along      Side     `json:"along"`
	Configs    []string `json:"configs"`
	Increasing bool     `json:"increasing"`
	Throughout bool     `json:"throughout"`
	Contrast   []string `json:"contrast"`
	Counts     bool     `json:"counts"`
	ContrastB  bool     `json:"contrast_b,omitempty"`
	ContrastC  []string `json:"contrast_configs,omitempty"`
}

func pin(c Claim) pinnedClaim {
	return pinnedClaim{c.ID, c.Kind.String(), c.A, c.B, c.Margin, c.Metric, c.Along,
		c.Configs, c.Increasing, c.Throughout, c.Contrast, c.Aside == "", c.ContrastB, c.ContrastConfigs}
}

// hashOf is the SHA-256 of the rules and the pinned claims.
func hashOf(claims []pinnedClaim) string {
	b, err := json.Marshal(struct {
		Rules  string        `json:"rules"`
		Claims []pinnedClaim `json:"claims"`
	}{claimRules, claims})
	if err != nil {
		panic(fmt.Sprintf("verdict: encoding claims: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Hash returns the SHA-256 of the judged content of the claims on figure fig (kinds,
// sides, metrics, margins, checkpoints, contrasts, whether they count, and the rules; not the
// wording), or "" when no statement has a claim on fig. Each figure's manifest records it, so
// that claims changed after a run show.
func Hash(fig string, statements []Statement) string {
	var claims []pinnedClaim
	for _, st := range statements {
		for _, c := range st.Claims {
			if c.Figure == fig {
				claims = append(claims, pin(c))
			}
		}
	}
	if len(claims) == 0 {
		return ""
	}
	return hashOf(claims)
}

// ClaimHash is one claim's own hash: Hash's encoding of that claim alone with the rules, so
// that the history of claims (reproduction/claim-history.csv) can follow each claim.
func ClaimHash(c Claim) string { return hashOf([]pinnedClaim{pin(c)}) }

// Figures returns the figures the statements' claims are judged on, in order of first use.
func Figures(statements []Statement) []string {
	var out []string
	for _, st := range statements {
		for _, c := range st.Claims {
			if !slices.Contains(out, c.Figure) {
				out = append(out, c.Figure)
			}
		}
	}
	return out
}

// Conditions are the design choices of the project that a claim's verdict rests on, where the
// paper leaves them open: the privacy currency of a private comparison, DP-GIBO's clipping
// rule where the paper gives no B, and the scale of "substantially". The stand-in data, the
// fourth, is read from the results (verdict's StandIn).
func Conditions(c Claim) []string {
	var out []string
	// fig-private-select runs its equal mu-GDP block at mu = 1 (algocfg.GDPBlockLabel).
	gdp := func(s Side) bool {
		return s.Config == algocfg.Label(algocfg.GDPBlockLabel, "mu", 1, s.Method, nil, algocfg.Config{})
	}
	switch {
	case c.Figure == "fig-private-select" && (gdp(c.A) || gdp(c.B)):
		out = append(out, "currency: equal mu-GDP")
	case c.Figure == "fig-private-select":
		out = append(out, "currency: each comparator at the (epsilon, 1e-5) of DP-GIBO's mu")
	case c.Figure == "fig-private":
		out = append(out, "currency: every method mu-GDP at equal mu")
	}
	switch c.Figure {
	case "fig-private", "fig-private-select":
		if c.A.Task == "gpreg" || c.B.Task == "gpreg" {
			// Both run GP regression with fig2a-b3's settings, not fig2a's noise-floor rule.
			out = append(out, "clip: B = 3 on GP regression, fixed before fig2a's first runs")
		}
	case "fig2a-b3":
		out = append(out, "clip: B = 3, fixed before fig2a's first runs")
	case "fig2a", "noise-misspec":
		out = append(out, "clip: the noise-floor rule B = 2 sigma/l")
	}
	if c.Metric == MetricLogGap && c.Margin == SubstantialMargin {
		out = append(out, `"substantially": a gap to f* at most half the other's`)
	}
	return out
}
