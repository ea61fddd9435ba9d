package audit

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gocarina/gocsv"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines/gibo"
	"dpgibo/internal/records"
)

// Run audits the configured mechanisms and writes outDir/audit.csv (one row per mechanism)
// and outDir/audit.md (the same table with the configuration and how to read it). Both
// files are written atomically. Run returns an error when a negative control passes, since
// the audit then has no power; the files are written first so the failure can be inspected.
func Run(ctx context.Context, cfg config, outDir string) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	rows, err := Audit(ctx, cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	csvBytes, err := gocsv.MarshalBytes(rows)
	if err != nil {
		return fmt.Errorf("audit: encoding audit.csv: %w", err)
	}
	if err := writeFile(filepath.Join(outDir, "audit.csv"), csvBytes); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(outDir, "audit.md"), []byte(markdown(cfg, rows))); err != nil {
		return err
	}
	var weak []string
	for _, r := range rows {
		if isControl(r.Mechanism) && r.Verdict != violation {
			weak = append(weak, r.Mechanism)
		}
	}
	if len(weak) > 0 {
		return fmt.Errorf("audit: negative controls not detected (the audit lacks power; raise Runs): %s", strings.Join(weak, ", "))
	}
	return nil
}

// markdown renders rows as the audit.md report.
func markdown(cfg config, rows []row) string {
	var b strings.Builder
	alpha := 1 - cfg.Confidence
	fmt.Fprintf(&b, "# Privacy audit\n\n")
	fmt.Fprintf(&b, "R = %d runs per dataset and mechanism unless its row says otherwise (half select the threshold test, half measure it); "+
		"T = %d, n = %d, d = %d, Clip = %g, Step = %g, box [-%g, %g]^d, user 0's slope %g, seed %d. Lower bounds at confidence %g "+
		"(Clopper-Pearson, union bound over the two rates), alpha = %.3g for every row.\n\n",
		cfg.Runs, cfg.Iters, cfg.Users, cfg.Dim, cfg.Clip, cfg.Step, cfg.HalfWidth, cfg.HalfWidth, cfg.Slope, cfg.Seed, cfg.Confidence, alpha)
	fmt.Fprintf(&b, "Each row claims mu-GDP (mu) or (epsilon, delta)-DP (eps, delta); `estimate` is mu_hat or eps_hat, `lower bound` mu_lb or eps_lb, "+
		"`lb/claim` the tightness (0.8 or more: tight). `population` is the exact mu or epsilon of the real mechanism's own test on the row's pair, "+
		"computed from pinned numbers, never from the code's plan; `p (Holm)` is the real mechanism's p-value against it, Holm-adjusted over "+
		"the rows that have one.\n\n")
	fmt.Fprintf(&b, "| mechanism | claim | estimate | lower bound | lb/claim | population | p (Holm) | R | verdict |\n")
	fmt.Fprintf(&b, "|---|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		claim, est, lb := fmt.Sprintf("mu %.3g", r.MuClaimed), r.MuHat, r.MuLB
		if r.EpsClaimed.Valid {
			claim, est, lb = fmt.Sprintf("eps %.3f, delta %.2g", r.EpsClaimed.Value, r.DeltaClaimed.Value), r.EpsHat.Value, r.EpsLB.Value
		}
		pop, p := "", ""
		if r.Population.Valid {
			pop = fmt.Sprintf("%.3f", r.Population.Value)
		}
		if r.HolmP.Valid {
			p = fmt.Sprintf("%.2g", r.HolmP.Value)
		}
		fmt.Fprintf(&b, "| %s | %s | %.3f | %.3f | %.2f | %s | %s | %d | %s |\n", r.Mechanism, claim, est, lb, r.LBOverClaim, pop, p, r.Runs, r.Verdict)
	}
	fmt.Fprintf(&b, "\nVerdicts. A row without a population value passes when its lower bound is at most its claim. A control (name starting "+
		"with `%s`, a deliberately broken mechanism) that has a population value reads `%s` when its lower bound exceeds that value, "+
		"and must; a real mechanism that has one reads `%s` when its lower bound exceeds its claim or its Holm-adjusted p-value is "+
		"below alpha = %.3g (multiplicity: Holm over the real rows with a population value; each control is judged on its own, at "+
		"confidence %g).\n\n", controlPrefix, violation, violation, alpha, cfg.Confidence)
	fmt.Fprintf(&b, "Controls:\n\n")
	fmt.Fprintf(&b, "- `%s`, `%s`: algo.Minimize with Mu = 2 and 3 times mu_claimed (noise std %.4g and %.4g instead of %.4g per coordinate and step).\n",
		ControlNoiseHalved, controlNoiseThird, algo.PrivacyNoiseStd(cfg.Clip, cfg.Iters, cfg.Users, 2*cfg.Mu),
		algo.PrivacyNoiseStd(cfg.Clip, cfg.Iters, cfg.Users, 3*cfg.Mu), algo.PrivacyNoiseStd(cfg.Clip, cfg.Iters, cfg.Users, cfg.Mu))
	fmt.Fprintf(&b, "- `%s`: algo.Minimize with Clip = %g (never binds) and Mu scaled by the same factor, so the noise is the one claimed for Clip = %g.\n",
		controlNoClip, cfg.NoClipFactor*cfg.Slope, cfg.Clip)
	fmt.Fprintf(&b, "- `%s`: the real dp-random with Mu = 2*mu_claimed.\n", controlDPRandomNoiseHalved)
	fmt.Fprintf(&b, "- `%s`: adaptive clipping with Mu doubled, so the count noise std is half of sqrt(T)/mu_c, audited on its counts against the configured mu_c.\n", controlAdaptiveCountNoiseHalved)
	fmt.Fprintf(&b, "- `%s`: clip calibration with Mu doubled, so the noise of each count is half of sqrt(Queries)/mu_cal, audited on its first count against the configured per-count mu.\n", controlCalibrationNoiseHalved)
	fmt.Fprintf(&b, "- `%s`, `%s`: the real dp-rnm at twice and three times the claimed epsilon (half and a third of its noise scale).\n", controlDPRNMNoiseHalved, controlDPRNMNoiseThird)
	fmt.Fprintf(&b, "- `%s<selection>%s`, `%s<selection>%s`: the selection's loop with the plan's noise divided by 2 and by 3; for dp-select-geometric the "+
		"division by 3 is `%s%s%s`, the dropped factor 3 of eps_0 = eps/3 (Laplace scale Delta/eps instead of 3 Delta/eps), counted once.\n",
		controlPrefix, controlNoiseHalvedSuffix, controlPrefix, controlNoiseThirdSuffix, controlPrefix, dpSelectGeometric, controlEps0DroppedSuffix)
	fmt.Fprintf(&b, "- `%s%s%s`: DP-HyPO without noise (its adaptive proposals leave its split test without a closed form, so it has no population value; its trial row is its tight row).\n",
		controlPrefix, dpHyPO, controlSelectionSuffix)
	fmt.Fprintf(&b, "- `%s`, `%s`, `%s`: the safe release with 2 and 3 times its mu, the hybrid's start choice with twice its mu.\n\n",
		controlSafeReleaseNoiseHalved, controlSafeReleaseNoiseThird, controlHybridStartNoiseHalved)
	fmt.Fprintf(&b, "DP-GIBO: neighbours X, X' differ in user 0 only, whose loss is +-%g*theta_1 (all other users' losses are 0); "+
		"noiseless runs confirm that every step moves theta_1 by exactly Step*Clip/n, so the pre-noise aggregates differ by 2*Clip/n. "+
		"With the gradient-descent step and a box that never binds, the released theta_1 is Gaussian with means -+T*Step*Clip/n "+
		"and std Step*sqrt(T)*noise std, a separation of exactly mu: the test's population mu is the claim. "+
		"AdaGrad is post-processing but makes theta a nonlinear function of the noise, so its row can only be looser.\n\n", cfg.Slope)
	fmt.Fprintf(&b, "dp-random and dp-ucb (budget %d releases, Lmax = %g) are audited on the scores they publish: every user's loss is 0 "+
		"except user 0's, which is 0 in X and Lmax in X' everywhere, so each clipped-mean score moves by exactly Lmax/n; "+
		"the statistic is the mean of the released noisy scores, which separates X from X' by exactly mu when the noise "+
		"matches (Lmax/n)*sqrt(K)/mu.\n\n", cfg.BaselineBudget, cfg.LossBound)
	muCount := algo.AdaptiveClip{CountShare: cfg.ClipCountShare}.CountMu(cfg.Mu)
	fmt.Fprintf(&b, "Adaptive clipping (B_0 = Clip, target quantile %g, rate %g, count share %g of mu^2, so mu_c = %.3g) is audited on "+
		"flip neighbours: user 0's loss is %g*theta_1 in X (clipped at every iteration) and 0 in X' (never clipped), "+
		"which noiseless runs confirm through counts of exactly n-1 and n. `%s` releases theta_1 (claim: the total mu; "+
		"the gradients differ by B_t/n, half their sensitivity, so the row is loose by design); `%s` is the sum of the T "+
		"released counts, whose means differ by exactly T against noise std T/mu_c: its tight row.\n\n",
		cfg.ClipQuantile, cfg.ClipRate, cfg.ClipCountShare, muCount, cfg.Slope, dpgiboAdaptive, dpgiboAdaptiveCounts)
	perCount := cfg.Mu * math.Sqrt(cfg.CalibrationShare/float64(cfg.CalibrationQueries))
	fmt.Fprintf(&b, "Clip calibration (algo.ClipCalibration, share %g of mu^2, %d counts, so each count is %.3g-GDP) is audited on the "+
		"same flip neighbours: the first count of the binary search, at the same candidate in X and X', is 1 in X and 0 in X' "+
		"before noise, which a noiseless run confirms. `%s` releases theta_1 (claim: the total mu; loose by design, as the "+
		"gradients differ by at most half their sensitivity); `%s` is that first count, whose means differ by exactly 1 against "+
		"noise std sqrt(Queries)/mu_cal: its tight row.\n\n",
		cfg.CalibrationShare, cfg.CalibrationQueries, perCount, dpgiboCalibrated, dpgiboCalibrationCount)
	eps, _ := accounting.PureWithinGDP(cfg.Mu)
	fmt.Fprintf(&b, "dp-rnm claims pure epsilon = %.4g (its release at mu = %g, the secondary currency) and is audited on a pair of %d "+
		"candidates (R = %d): user 0's loss is Lmax at the first candidate evaluated and 0 at the others in X, the reverse in X', "+
		"so the first candidate's score moves by 2 Lmax/n against the rest, where the factor 2 of its noise scale 2 Delta/eps "+
		"matters. The statistic is 1 when the first candidate is released; its population epsilon is the quadrature of the "+
		"chance that the first of %d Laplace scores is the lowest.\n\n", eps, cfg.Mu, cfg.RNMCandidates, cfg.TrialRuns, cfg.RNMCandidates)
	fmt.Fprintf(&b, "The selections with a random number of trials claim (epsilon, delta)-DP at mu = %g (their primary currency; mean %d trials). "+
		"End to end they are audited on split neighbours on [0, 1]^d: every user's loss is 0 except user 0's, which is Lmax = %g where "+
		"theta_1 < 1/2 in X and where theta_1 >= 1/2 in X', so every trial's score moves by Lmax/n, in opposite directions on the "+
		"two halves; the statistic is the released theta_1. Their theorems bound the worst pair, so these rows are not tight "+
		"against the claim and no bar applies to them; their population epsilon (the quadrature of the chance that the favoured "+
		"half wins, over the pinned distribution of K with its cap and the pinned noise) is beside them, and their controls are "+
		"judged against it. Their tight rows audit one trial (`<selection>%s`, R = %d): on constant neighbours (user 0's loss 0 "+
		"in X, Lmax in X' everywhere) the first trial's noisy score, read through OnScore, moves by exactly Lmax/n, so a Gaussian "+
		"trial claims mu = 1/z and the Laplace trial of dp-select-geometric pure eps_0 = eps/3, from the pinned noise multipliers. "+
		"A chi-square test in `go test` checks that the drawn numbers of trials follow their distribution, cap included.\n\n",
		cfg.SelectionMu, cfg.SelectionBudget, cfg.LossBound, trialSuffix, cfg.TrialRuns)
	fmt.Fprintf(&b, "The safe release of gibo.Safe (`%s`) is audited as a component with its own claim, the release's mu "+
		"(the run's total mu is that over sqrt(%g), the release's share of mu^2), on spike neighbours: user 0's loss is Lmax = %g at "+
		"exactly theta0 in X and 0 there in X', and 0 in X and Lmax in X' everywhere else; every other user's is 0. With DP-GIBO's last "+
		"iterate anywhere but theta0 (checked on every run), the two clipped means differ by +-Lmax/n, the release's full "+
		"sensitivity, and the released choice (the statistic: 1 when theta0 is released) is a threshold test of a Gaussian shift "+
		"of exactly the claim, its population mu. The hybrid's start choice "+
		"(`%s`, gibo.Hybrid, share %g of mu^2; in d = 1 a choice between theta0 and one uniform point) is audited the same "+
		"way, its statistic 1 when the chosen start is theta0.\n",
		dpgiboSafeRelease, gibo.DefaultReleaseShare, cfg.LossBound, dpgiboHybridStart, gibo.DefaultStartShare)
	return b.String()
}

// writeFile writes data to path atomically (records.WriteFileAtomic).
func writeFile(path string, data []byte) error {
	if err := records.WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}
