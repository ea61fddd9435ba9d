package studies

import (
	"strings"

	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// The library study's comparison with the best non-private peers (experiments'
// -suite=library-peers, declared in docs/library.md before it ran): each figure
// libraryPeersPrefix+PROBLEM holds DP-GIBO with algo's defaults at several mu (configs
// "mu=M,defaults=library") beside TPE and CMA-ES.
const (
	// libraryPeersPrefix names the comparison's figures.
	libraryPeersPrefix = "library-peers-"
	// LibraryPeersFile is its table, written beside DefaultsFile.
	LibraryPeersFile = "library-peers.csv"
)

// PeerRow is one method (and, for DP-GIBO, one mu) on one problem of the comparison.
type PeerRow struct {
	Problem string `csv:"problem"`
	Task    string `csv:"task"`
	D       int    `csv:"d"`
	Method  string `csv:"method"`
	Config  string `csv:"config"`
	Runs    int    `csv:"runs"`
	// MedianLoss is the median final loss over the runs.
	MedianLoss float64 `csv:"median_loss"`
	// MedianOwnSeconds and MedianSeconds are the medians over the runs of the method's own
	// time (a run's design seconds: everything but the objective's evaluations and the
	// runner's reports) and of its whole wall time, from the timings; empty when the
	// timings lack the runs.
	MedianOwnSeconds records.OptFloat `csv:"median_own_seconds"`
	MedianSeconds    records.OptFloat `csv:"median_seconds"`
}

// libraryPeers tabulates every figure of the comparison in res, with own times from
// timings.
func libraryPeers(res *verdict.Results, timings []records.Timing) []PeerRow {
	type key struct{ fig, method, config string }
	own, total := map[key][]float64{}, map[key][]float64{}
	for _, t := range timings {
		for _, fig := range strings.Split(t.Figures, ";") {
			if strings.HasPrefix(fig, libraryPeersPrefix) {
				k := key{fig, t.Method, t.Config}
				own[k] = append(own[k], t.DesignSeconds)
				total[k] = append(total[k], t.TotalSeconds)
			}
		}
	}
	var out []PeerRow
	for _, fig := range res.Figures {
		problem, ok := strings.CutPrefix(fig, libraryPeersPrefix)
		if !ok {
			continue
		}
		for _, c := range res.CurvesOf(fig) {
			losses := make([]float64, len(c.Runs))
			for i, r := range c.Runs {
				losses[i] = r.Loss
			}
			row := PeerRow{Problem: problem, Task: c.Task, D: c.D, Method: c.Method, Config: c.Config, Runs: len(c.Runs), MedianLoss: stats.Median(losses)}
			if k := (key{fig, c.Method, c.Config}); len(own[k]) > 0 {
				row.MedianOwnSeconds, row.MedianSeconds = records.Some(stats.Median(own[k])), records.Some(stats.Median(total[k]))
			}
			out = append(out, row)
		}
	}
	return out
}
