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
// # Statements and claims
//
// A statement is one clause of the paper (its sentence and section) or of this project's own
// comparisons; a claim is one test of it between two sides of one figure, declared once in
// code (package dpgibo/figures/claims) before the run whose results judge it. Directional claims use a
// one-sided test in the claimed direction; margin claims ("not worse than", "about equal")
// shift the differences by delta = Margin x G0, G0 the setting's median start gap f(theta0) -
// f* (or by Margin on the normalised regret (f - f*)/G0 across d); trends over a swept value
// use Page's L test across the paired configs; "throughout" claims are judged at every
// checkpoint k(d+1) evaluations (intersection-union). Holm's adjustment runs over the claim
// tests of one figure only, so adding a method or a claim to another figure changes no
// verdict here.
//
// "Substantially" is judged on claims.MetricLogGap, the log of the normalised gap to f*, with margin
// log 2 (one gap at least twice the other), a rule chosen after the results were seen (post
// hoc, said in each such claim's evidence).
//
// A claim's verdict is "reproduced" when its test is significant in the claimed direction at
// Alpha after Holm and its controls hold: a margin claim's do-nothing control (side A
// replaced by the start loss) is refuted, and no method (or config) the statement contrasts
// its subject with reproduces it too (else "not specific"). A claim that one side is better by
// a margin also has an attainability control: with the better side replaced by f* (an
// oracle) the claim must hold at p x k <= Alpha, else it is inconclusive (margin
// unattainable), never reproduced or not reproduced. It is "not reproduced" when the test in the
// opposite direction is significant at Alpha after Holm, "inconclusive" otherwise, and "not
// yet run" while its figure has no results. A statement is reproduced iff all its counted
// claims are and not reproduced iff any is.
//
// The studies' tables (design, precision, implementation, revision and library studies) are
// in package dpgibo/figures/studies, the files of a results folder are written by package
// dpgibo/figures/outputs, and README's and the docs' generated sections by the command
// dpgibo/figures/readme.
package verdict
