// Package verdict turns the runner's figure CSVs into statistical verdicts: a summary of
// every curve's final losses with a confidence interval of the median (summary.csv), rank
// tests between curves (comparisons.csv) and the paper's claims judged by those tests
// (claims.csv). It reads CSVs only, like package plotting, and never re-runs an experiment.
//
// # Definitions
//
// A run's final loss is the loss of its last reported iteration (the released theta at the
// end of the run); its final evaluations are that row's evals. A curve is the set of runs of
// one (figure, config, task, data, d, method); its runs are indexed by seed.
//
// The median is the usual sample median (the mean of the two middle order statistics for an
// even count), which is the 50% quantile of figures/plotting (Hyndman and Fan's type 7). Its
// confidence interval is the distribution-free order-statistic interval of package
// dpgibo/figures/stats at level >= 95%, with the achieved coverage in ci_coverage;
// deterministic, no resampling.
//
// # Pairing
//
// Two curves of one figure, task, data and d are paired by seed when the design pairs their
// runs: the same method under two configs (same seed: same theta0, same random streams), or
// DP-GIBO against GIBO (same seed: same theta0; each setting uses one data set). They are then
// compared by the Wilcoxon signed-rank test on the per-seed differences a - b with the
// Hodges-Lehmann estimate and its Walsh-average interval. Every other pair (random search,
// UCB-BO, TPE, ... against anything else) has independent streams and is compared by the
// Mann-Whitney U test with the Hodges-Lehmann shift of a - b.
//
// # Claims
//
// A Claim is one sentence of the paper (or of this project's own comparisons) with the test
// it rests on, declared once in code (see PaperClaims) before the run whose results judge
// it. Directional claims ("A has lower loss than B") use a one-sided test in the claimed
// direction; "not worse than" claims shift the differences by a margin relative to B's
// median; equivalence claims are two one-sided margin tests (the larger p counts); trend
// claims over a swept value use Page's L test across the paired configs. Holm's adjustment
// runs over the claim tests of one figure only, so adding a method or a claim to another
// figure changes no verdict here.
//
// A claim's verdict is "reproduced" when its test is significant in the claimed direction at
// Alpha after Holm, "not reproduced" when the same test in the opposite direction is
// significant at Alpha after Holm (for margin claims: the difference is significantly beyond
// the margin), and "inconclusive" otherwise, including when its runs are missing.
package verdict
