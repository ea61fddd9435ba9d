// Package stats holds the statistical primitives of the verdicts over result CSVs: the
// sample median and its distribution-free confidence interval, the Wilcoxon signed-rank and
// Mann-Whitney U tests with Hodges-Lehmann estimates and intervals, Page's L trend test, and
// Holm's adjustment. Everything is deterministic (no resampling, no random source) and every
// p-value follows a named scipy convention, so a verdict can be re-derived with scipy.
//
// # Conventions in one place
//
// Alternatives are scipy's: Greater means the location of the sample (the differences d, a
// relative to b, or the trend across treatments in their given order) is greater than under
// the null hypothesis, Less smaller, TwoSided either.
//
// Median is the mean of the two middle order statistics for even n (Hyndman and Fan type 7 at
// p = 0.5, as in figures/plotting, numpy and R).
//
// MedianCI is the order-statistic interval [x_(l), x_(n+1-l)], l the largest integer with
// coverage 1 - 2 P(Bin(n, 1/2) <= l-1) >= level; when even [min, max] covers less than the
// level (n <= 5 at 95%) it returns [min, max] with its smaller coverage, never an infinite
// interval, so a reported coverage below the level marks a sample too small for it.
//
// WilcoxonSignedRank matches scipy.stats.wilcoxon(d, zero_method="wilcox",
// correction=False): zero differences are dropped for the test; among the N remaining, the
// exact null distribution of T+ is used when N <= 50 and no |d| are tied (as
// scipy.stats.wilcoxon(d[d != 0], method="exact")), otherwise the normal approximation with
// scipy's tie-corrected variance and no continuity correction (as method="approx").
// scipy 1.10's method="auto" differs in two corners: it uses the normal approximation
// whenever d holds a zero, and its exact table (on a truncated T+) when |d| has ties.
// Statistic is T+ for every alternative. Its Hodges-Lehmann estimate and interval use all
// differences, zeros included.
//
// MannWhitney matches scipy.stats.mannwhitneyu(a, b, use_continuity=False, method="auto"):
// exact when one sample has at most 8 values and no pooled values are tied, otherwise the
// normal approximation with tie correction and no continuity correction. Statistic is U of a.
// The estimate is the Hodges-Lehmann shift median(a_i - b_j).
//
// Hodges-Lehmann intervals (both tests) are two-sided whatever the alternative: the k-th
// smallest and k-th largest of the Walsh averages (Wilcoxon) or pairwise differences
// (Mann-Whitney), k the largest integer whose coverage 1 - 2 P(T <= k-1) under the test's
// untied null distribution reaches the level (k = 1 with its lower coverage when none
// does). The distribution is exact for Wilcoxon with n <= 500 differences and for
// Mann-Whitney with one sample of at most 8 or n_a n_b <= 10000; otherwise a
// continuity-corrected normal approximation, whose reported coverage is then within 1e-3 of
// the exact one. Ties make every coverage approximate.
//
// PageL matches scipy.stats.page_trend_test(data, method="auto") for Greater (its only
// alternative): exact when k <= 8 treatments, n <= 20 blocks and not (n > 12 and k > 3),
// otherwise normal; Less reverses the treatments, TwoSided doubles the smaller one-sided
// p-value (capped at 1).
//
// Holm gives Holm-Bonferroni adjusted p-values (statsmodels' multipletests(method="holm"),
// R's p.adjust(method="holm")).
//
// The tests return an error naming the offending value for NaN or infinite input, empty
// samples, all-zero differences, invalid alternatives and levels outside (0, 1). Median and
// MedianCI return NaN for empty input or a NaN; Holm and MedianCI panic on values that can
// only come from a programming error (a p-value outside [0, 1], a level outside (0, 1)).
//
// The tests of this package hold reference values computed with scipy 1.10.1 and, for the
// Hodges-Lehmann intervals, brute-force enumeration and Hollander and Wolfe's textbook
// example.
package stats
