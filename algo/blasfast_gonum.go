//go:build !openblas

package algo

// oneColumnByTrsv selects how gradState solves with L for one right-hand side (the greedy
// design's case, thousands of solves per iteration). In the pure-Go build the solves are
// axpys along rows of L and L^T that repeat gonum's Dtrsm operation for operation, so the
// results are bitwise those of Dtrsm, without its call per matrix entry.
const oneColumnByTrsv = false
