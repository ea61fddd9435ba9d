//go:build !openblas

package algo

// gonumOrderSolves selects how gradState solves with its Cholesky factor for one column
// (see solveL): in the pure-Go build by axpys that repeat gonum's Dtrsm operation for
// operation, so results are bitwise Dtrsm's, with one call per row instead of per entry.
const gonumOrderSolves = true
