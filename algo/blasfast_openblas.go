//go:build openblas

package algo

// oneColumnByTrsv selects how gradState solves with L for one right-hand side (the greedy
// design's case, thousands of solves per iteration). The openblas build calls OpenBLAS's
// Dtrsv, one call per solve; it sums in another order than OpenBLAS's Dtrsm with one
// column, so results agree with Dtrsm's to rounding, not bitwise.
const oneColumnByTrsv = true
