package private

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines/selection"
	"dpgibo/tasks"
)

// Config is what Tune needs besides the objective. Exactly one privacy target must be set:
// Mu (mu-GDP, the common case) or EpsDelta ((epsilon, delta)-DP, any delta). Whatever
// method the rule chooses, Tune calibrates it to that target in that currency, rounding
// toward more noise, and its Result's ledger shows the target met.
type Config struct {
	// Mu is a mu-GDP target with respect to replacing one validation user (math.Inf(1):
	// no privacy noise). Every method runs at it: DP-GIBO and its safe and hybrid variants
	// natively, report-noisy-min at the largest pure epsilon that is mu-GDP
	// (accounting.PureWithinGDPExact), the Gaussian release of every score natively. The
	// selections with a random number of trials are not offered at a mu-GDP target.
	Mu float64
	// EpsDelta is an (epsilon, delta)-DP target, instead of Mu (zero: none). DP-GIBO and
	// its variants and the Gaussian release run at the largest mu whose (epsilon, delta)
	// meets it (accounting.GDPWithin), the selections at their own (epsilon, delta)
	// bound: report-noisy-min pure epsilon-DP, the selections with a random number of
	// trials capped at Evals.
	EpsDelta accounting.EpsDelta
	// Evals is the evaluation budget, the calls of the objective's Losses (0: 20(d+1),
	// DP-GIBO's default iterations at its default batch). No method evaluates more.
	Evals int
	// Theta0 is the start of the DP-GIBO methods, chosen without looking at the validation
	// data (nil: the box centre).
	Theta0 []float64
	// LossBound is Lmax, a public bound on every user's loss (0: the objective's
	// LossBound(), algo.LossBounder). Every method but DP-GIBO clips its scores to it and
	// needs one.
	LossBound float64
	// LogLoss declares that each user's loss is a classifier's log loss with clamped
	// probabilities (Facts.LogLoss), a public fact some rules read.
	LogLoss bool
	// Rule chooses the method from the public facts (nil: DefaultRule).
	Rule Rule
}

// DefaultRule is the rule Tune uses when Config.Rule is nil: the one the low-SNR study's
// second round (docs/library.md, "DP-GIBO at low SNR, second round") chose for each
// currency, by the declared criterion, on the training problems and the first round's
// held-out ones. At an (epsilon, delta) target it is report-noisy-min for a classifier's log
// loss (Config.LogLoss) and DP-GIBO otherwise; at a mu-GDP target, DP-GIBO. It is the best
// of the declared candidates on the problems it was chosen on (the study's tables give each
// cell), not a guarantee.
var DefaultRule Rule = ByCurrency{
	EpsDelta: ByLoss{LogLoss: ReportNoisyMin, Other: Always{Method: DPGIBO}},
	GDP:      Always{Method: DPGIBO},
}

// lowSNRFirstRule is the rule the low-SNR study's first round chose for each currency on
// fifteen training problems, which dp-auto's revision 5 runs: at an (epsilon, delta)
// target the second round's rule (secondRoundRule); at a mu-GDP target, report-noisy-min for
// a log loss and DP-GIBO otherwise.
var lowSNRFirstRule Rule = ByCurrency{
	EpsDelta: secondRoundRule,
	GDP:      ByLoss{LogLoss: ReportNoisyMin, Other: Always{Method: DPGIBO}},
}

// secondRoundRule is the rule the study's second round (docs/library.md, "The library's
// private tuner, second round") chose on the first round's thirteen problems, which
// dp-auto's revisions 3 and 4 run: report-noisy-min for a classifier's log loss, else the
// hybrid DP-GIBO below an SNR ceiling of 2 and DP-GIBO above.
var secondRoundRule Rule = ByLoss{LogLoss: ReportNoisyMin, Other: ByCeiling{Cut: 2, Below: HybridDPGIBO, Above: DPGIBO}}

// Plan is what Tune will do, known before any evaluation from public facts only.
type Plan struct {
	Facts  Facts
	Choice Choice
	// GIBO is DP-GIBO's privacy forecast at the settings the chosen method runs it with (nil
	// for a selection): its noise per coordinate and iteration and the SNR ceiling.
	GIBO *algo.PrivacyForecast
	// ScoreNoise is the noise on each score a selection compares, in loss units: the
	// Laplace scale of dp-rnm and dp-select-geometric, the Gaussian standard deviation of
	// dp-random and dp-select-negbin; for the safe release and the hybrid, the Gaussian
	// standard deviation of the release's scores. 0 for DP-GIBO and at Mu = +Inf.
	ScoreNoise float64
	// MaxEvals is the most evaluations the chosen method may use, at most Facts.Evals (a
	// selection with a random number of trials: its cap, its mean number of trials set so
	// that the cap fits the budget).
	MaxEvals int
	// Warnings say, from public facts only, where the chosen method is likely to return
	// little better than its start or a random candidate (ScoreNoiseWarning, DP-GIBO's SNR
	// ceiling below 1). Tune's Result.Warnings begins with them.
	Warnings []string
	// cal is the chosen method's calibration to the target, which Tune runs.
	cal calibration
}

// ScoreNoiseWarning is the fraction of the loss bound at which Forecast warns that a
// selection's score noise (Plan.ScoreNoise, the Laplace scale or Gaussian standard
// deviation on each clipped mean score, or the safe release's) makes its pick close to
// random: scores lie in [0, Lmax], and noise of a tenth of that range swamps the
// differences between candidates of most losses. It is a declared threshold, not a
// measurement: it cannot catch a pick that is close to random under less noise because the
// candidates' mean losses differ by less than the noise (a flat loss, or a loss bound far
// above the losses), nor anything else that depends on the data, which Forecast never
// reads.
const ScoreNoiseWarning = 0.1

// calibration is a method's noise parameters at the target: the pure epsilon of dp-rnm and
// the plan of a selection with a random number of trials (DP-GIBO's and dp-random's mu is
// Facts.Mu).
type calibration struct {
	eps float64
	sel selection.SelectionPlan
}

// Forecast returns what Tune would do on obj with cfg: the facts, the rule's choice and the
// noise the chosen method adds at the target. It reads obj's Dim, Bounds, Users and
// LossBound, never its Losses, and returns the error Tune would for bad input, including a
// method the rule chose that cannot meet the target and the budget together.
func Forecast(obj algo.Objective, cfg Config) (Plan, error) {
	facts, err := factsOf(obj, cfg)
	if err != nil {
		return Plan{}, err
	}
	rule := cfg.Rule
	if rule == nil {
		rule = DefaultRule
	}
	plan := Plan{Facts: facts, Choice: rule.Choose(facts), MaxEvals: facts.Evals}
	m := plan.Choice.Method
	if m == nil {
		return Plan{}, fmt.Errorf("private: the rule chose no method (%s)", plan.Choice.Reason)
	}
	if m != DPGIBO && facts.LossBound == 0 {
		return Plan{}, fmt.Errorf("private: %v (chosen because %s) needs a loss bound: set Config.LossBound or give the objective a method LossBound() float64", m, plan.Choice.Reason)
	}
	if err := m.calibrate(obj, cfg, &plan); err != nil {
		return Plan{}, err
	}
	lmax := facts.LossBound
	if plan.ScoreNoise >= ScoreNoiseWarning*lmax && plan.ScoreNoise > 0 {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("%v's noise on each score, %.3g, is at least %g of the loss bound %g (n = %d users at this target): its pick is close to random unless the candidates' mean losses differ by more", m, plan.ScoreNoise, ScoreNoiseWarning, lmax, facts.Users))
	}
	if plan.GIBO != nil && plan.GIBO.SNRCeiling < 1 {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("DP-GIBO's SNR ceiling n mu_g/(2 sqrt(T d)) = %.3g is below 1: even a gradient every user agrees on is below its privacy noise, so its steps are mostly noise (more users, a larger target or a smaller budget raise it)", plan.GIBO.SNRCeiling))
	}
	return plan, nil
}

// Tune runs on obj the private method that cfg's rule chooses from public facts
// (Forecast), calibrated to cfg's target, with at most cfg.Evals evaluations, all
// randomness from rng, and returns its Result with the ledger (in the target's currency),
// the facts and the choice. cb sees the chosen method's reports.
//
// A nil rng means a generator seeded from crypto/rand for this call only: use it. A fixed,
// reused or published seed lets anyone who knows it replay the run, which voids the
// guarantee; fixed seeds belong to experiments, not to releases.
//
// Bad input (no objective, no target or two, a budget too small for the chosen method, no
// loss bound where it needs one, a method that cannot meet the target) is an error naming
// what is wrong, before any evaluation.
func Tune(ctx context.Context, obj algo.Objective, cfg Config, rng *rand.Rand, cb algo.Callback) (Release, error) {
	plan, err := Forecast(obj, cfg)
	if err != nil {
		return Release{}, err
	}
	f := plan.Facts
	rng = orSecret(rng)
	theta0 := cfg.Theta0
	if theta0 == nil {
		theta0 = make([]float64, f.Dim)
		for j := range theta0 {
			theta0[j] = (f.Lo[j] + f.Hi[j]) / 2
		}
	}
	out, err := plan.Choice.Method.run(ctx, withProgress(ctx, obj, plan.MaxEvals), cfg, plan, theta0, rng, cb)
	if err != nil {
		return Release{}, err
	}
	res := Release{Result: out}
	res.Facts, res.Choice = f, plan.Choice
	res.Warnings = append(append([]string(nil), plan.Warnings...), res.Warnings...)
	if res.Ledger, err = inTargetCurrency(res.Ledger, f); err != nil {
		return Release{}, err
	}
	return res, nil
}

// inTargetCurrency returns l stated in the currency of f's target and checks that it meets
// the target: at an (epsilon, delta) target, a mu-GDP ledger's epsilon is read at the
// target's delta; a pure or (epsilon, delta) ledger keeps its own. A ledger above the
// target is an error (a calibration bug), never a release.
func inTargetCurrency(l accounting.Ledger, f Facts) (accounting.Ledger, error) {
	if !l.Private {
		return l, nil
	}
	t := f.EpsDelta
	if t == (accounting.EpsDelta{}) {
		if !(l.Mu <= f.Mu) {
			return l, fmt.Errorf("private: the release is %v-GDP, above the %v-GDP asked", l.Mu, f.Mu)
		}
		return l, nil
	}
	if !math.IsNaN(l.Mu) && l.Delta != 0 {
		eps, err := accounting.EpsilonForDelta(l.Mu, t.Delta)
		if err != nil {
			return l, err
		}
		l.Epsilon, l.Delta = eps, t.Delta
	}
	if !(l.Epsilon <= t.Epsilon && l.Delta <= t.Delta) {
		return l, fmt.Errorf("private: the release is (%v, %v)-DP, above the (%v, %v)-DP asked", l.Epsilon, l.Delta, t.Epsilon, t.Delta)
	}
	return l, nil
}

// factsOf checks obj and cfg and returns the public facts Tune reads.
func factsOf(obj algo.Objective, cfg Config) (Facts, error) {
	if obj == nil {
		return Facts{}, fmt.Errorf("private: nil objective")
	}
	target := cfg.EpsDelta != (accounting.EpsDelta{})
	mu := cfg.Mu
	switch {
	case cfg.Mu != 0 && target:
		return Facts{}, fmt.Errorf("private: set one privacy target, Config.Mu (mu-GDP) or Config.EpsDelta ((epsilon, delta)-DP), not both (got Mu %v and EpsDelta %+v)", cfg.Mu, cfg.EpsDelta)
	case target:
		if err := cfg.EpsDelta.Check(); err != nil {
			return Facts{}, fmt.Errorf("private: Config.EpsDelta: %w", err)
		}
		var err error
		if mu, err = accounting.GDPWithin(cfg.EpsDelta); err != nil {
			return Facts{}, fmt.Errorf("private: Config.EpsDelta: %w", err)
		}
	case cfg.Mu == 0:
		return Facts{}, fmt.Errorf("private: no privacy target: set Config.Mu (mu-GDP) or Config.EpsDelta ((epsilon, delta)-DP)")
	case math.IsNaN(cfg.Mu) || cfg.Mu < 0:
		return Facts{}, fmt.Errorf("private: Config.Mu must be positive (math.Inf(1) for no privacy noise), got %v", cfg.Mu)
	}
	d, n := obj.Dim(), obj.Users()
	lo, hi := obj.Bounds()
	if err := tasks.CheckBox(d, lo, hi); err != nil {
		return Facts{}, fmt.Errorf("private: %w", err)
	}
	if n <= 0 {
		return Facts{}, fmt.Errorf("private: the objective has %d users, want at least 1", n)
	}
	evals := cfg.Evals
	if evals < 0 {
		return Facts{}, fmt.Errorf("private: Config.Evals must be positive (0: the default), got %d", evals)
	}
	if evals == 0 {
		evals = 20 * (d + 1)
	}
	if evals < 2*d+3 {
		return Facts{}, fmt.Errorf("private: budget %d (Config.Evals) is below the 2d+3 = %d evaluations every method needs (the hybrid's start choice, one DP-GIBO batch of d+1 and the release)", evals, 2*d+3)
	}
	bound := cfg.LossBound
	if bound == 0 {
		if lb, ok := obj.(algo.LossBounder); ok {
			bound = lb.LossBound()
		}
	}
	if bound != 0 && (!(bound > 0) || math.IsInf(bound, 0)) {
		return Facts{}, fmt.Errorf("private: the loss bound must be positive and finite, got %v", bound)
	}
	if cfg.Theta0 != nil {
		if err := tasks.CheckTheta("private: Config.Theta0", cfg.Theta0, lo, hi); err != nil {
			return Facts{}, err
		}
	}
	return Facts{Users: n, Dim: d, Lo: lo, Hi: hi, LossBound: bound, Mu: mu, EpsDelta: cfg.EpsDelta, Evals: evals, LogLoss: cfg.LogLoss}, nil
}
