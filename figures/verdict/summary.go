package verdict

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"dpgibo/figures/stats"
	"dpgibo/internal/records"
)

// Level is the confidence level of every interval this package reports.
const Level = 0.95

// Alpha is the significance level of the claim tests, after Holm's adjustment.
const Alpha = 0.05

// SummaryRow is one curve's final losses summarised (summary.csv).
type SummaryRow struct {
	Figure string `csv:"figure"`
	Config string `csv:"config"`
	Task   string `csv:"task"`
	Data   string `csv:"data"`
	D      int    `csv:"d"`
	Method string `csv:"method"`
	// NSeeds is the number of runs.
	NSeeds int `csv:"n_seeds"`
	// Median is the median final loss; CILow and CIHigh its order-statistic interval with
	// achieved coverage CICoverage (>= Level when NSeeds allows it).
	Median     float64 `csv:"median"`
	CILow      float64 `csv:"ci_low"`
	CIHigh     float64 `csv:"ci_high"`
	CICoverage float64 `csv:"ci_coverage"`
	// Mean and StdErr are the mean final loss and its standard error (sd / sqrt(n)).
	Mean   float64 `csv:"mean"`
	StdErr float64 `csv:"std_err"`
	// MedianEvals is the median number of evaluations a run used.
	MedianEvals float64 `csv:"median_evals"`
	// FStar is the best-known optimum of the setting (empty when unknown); MedianGap the
	// median of final loss - f*.
	FStar     records.OptFloat `csv:"f_star"`
	MedianGap records.OptFloat `csv:"median_gap"`
	// MedianSNR and MedianClippedFrac are the medians over seeds of each run's mean privacy
	// SNR and share of users clipped (Run.SNR, Run.ClippedFrac; empty without privacy
	// noise). They come from non-private diagnostics: they explain results, they are not a
	// release.
	MedianSNR         records.OptFloat `csv:"median_snr"`
	MedianClippedFrac records.OptFloat `csv:"median_clipped_frac"`
}

// summarise returns one SummaryRow per curve, in curve order.
func summarise(res *Results) []SummaryRow {
	out := make([]SummaryRow, 0, len(res.Curves))
	for _, c := range res.Curves {
		losses := c.Losses()
		evals := make([]float64, len(c.Runs))
		for i, r := range c.Runs {
			evals[i] = float64(r.Evals)
		}
		lo, hi, cov := stats.MedianCI(losses, Level)
		row := SummaryRow{
			Figure: c.Figure, Config: c.Config, Task: c.Task, Data: c.Data, D: c.D, Method: c.Method,
			NSeeds: len(losses), Median: stats.Median(losses), CILow: lo, CIHigh: hi, CICoverage: cov,
			Mean: stat.Mean(losses, nil), MedianEvals: stats.Median(evals),
		}
		if len(losses) > 1 {
			row.StdErr = stat.StdDev(losses, nil) / math.Sqrt(float64(len(losses)))
		}
		var snr, clipped []float64
		for _, r := range c.Runs {
			if !math.IsNaN(r.SNR) {
				snr = append(snr, r.SNR)
				clipped = append(clipped, r.ClippedFrac)
			}
		}
		if len(snr) > 0 {
			row.MedianSNR = records.Some(stats.Median(snr))
			row.MedianClippedFrac = records.Some(stats.Median(clipped))
		}
		if fstar, ok := res.FStar.Lookup(c); ok {
			gaps := make([]float64, len(losses))
			for i, l := range losses {
				gaps[i] = l - fstar
			}
			row.FStar = records.Some(fstar)
			row.MedianGap = records.Some(stats.Median(gaps))
		}
		out = append(out, row)
	}
	return out
}
