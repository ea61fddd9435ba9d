//go:build openblas

package algo

// gonumOrderSolves selects how gradState solves with its Cholesky factor for one column
// (see solveL). The openblas build calls OpenBLAS's Dtrsv, which sums in another order than
// OpenBLAS's Dtrsm with one column, so results agree with Dtrsm's to rounding, not bitwise.
const gonumOrderSolves = false
