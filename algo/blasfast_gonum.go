//go:build !openblas

package algo

// gonumOrderSolves selects how gradState solves with its Cholesky factor (see solveL): in
// the pure-Go build by loops that repeat gonum's Dtrsm operation for operation, so results
// are bitwise Dtrsm's, with fewer calls and better cache use.
const gonumOrderSolves = true
