//go:build openblas

package algo

// gonumOrderSolves selects how gradState solves with its Cholesky factor (see solveL). The
// openblas build calls OpenBLAS: Dtrsv for one column, which sums in another order than
// OpenBLAS's Dtrsm with one column, so results agree with Dtrsm's to rounding, not bitwise.
const gonumOrderSolves = false
