package suites

import (
	"strings"

	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
)

// LibraryPeers is the library study's comparison with the best non-private peers
// (docs/library.md, "The gap to the best non-private peers"): on every problem of the
// defaults study, DP-GIBO with algo's own defaults (the current revision) at mu in
// LibraryPeerMus beside TPE and CMA-ES at DP-GIBO's evaluation budget T(d+1), on the
// study's measured seeds.
const LibraryPeers = "library-peers"

// LibraryPeerMus are the privacy levels of DP-GIBO in the library-peers suite (+Inf: GIBO
// with algo's defaults).
var LibraryPeerMus = []num{0.5, 1, 2, inf}

// libraryPeersPrefix names the library-peers figures: libraryPeersPrefix + the problem.
const libraryPeersPrefix = "library-peers-"

// libraryPeersFigures returns one figure per problem of defaultsFigures: its
// "defaults=library" block at algo's current defaults (revision
// algocfg.DefaultsRevision, no candidate rule) swept over LibraryPeerMus, and a block of
// TPE and CMA-ES with the same task, data and T.
func libraryPeersFigures() []runner.Figure {
	var out []runner.Figure
	for _, f := range defaultsFigures() {
		problem, _ := strings.CutPrefix(f.Name, "defaults-")
		for _, b := range f.Blocks {
			if b.Algo.Defaults != algocfg.DefaultsLibrary || b.Algo.Rule != "" {
				continue
			}
			lib := b
			lib.Sweep, lib.Values = "mu", LibraryPeerMus
			lib.Algo.DefaultsRevision = 0 // algo's current defaults, not the study's base
			peers := b
			peers.Methods, peers.Algo = []string{"tpe", "cmaes"}, algocfg.Config{Iters: b.Algo.Iters, Mu: b.Algo.Mu}
			peers.CellSuite = ""
			out = append(out, runner.Figure{Name: libraryPeersPrefix + problem, Blocks: []runner.Block{lib, peers}})
			break
		}
	}
	return out
}
