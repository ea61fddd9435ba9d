package plotting

import (
	"sort"

	"dpgibo/internal/records"
)

// drawPeers draws fig-peers: final loss against d, one panel per task, one curve per method
// and configuration (DP-GIBO at each mu, dashed below mu = 1; GIBO, random search, TPE and
// CMA-ES once each), median with its confidence interval over the seeds.
func drawPeers(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	type taskKey struct{ task, data string }
	type curve struct{ method, config string }
	taskList := distinct(rows, func(r records.Row) taskKey { return taskKey{r.Task, r.Data} })
	var panels []*panel
	for _, tk := range taskList {
		var sub []records.Row
		for _, r := range rows {
			if r.Task == tk.task && r.Data == tk.data {
				sub = append(sub, r)
			}
		}
		p := newPlot(taskTitle(tk.task, tk.data)+", equal budget T(d+1)", "d (hyperparameters)", "final "+lossLabel(tk.task))
		curves := distinct(sub, func(r records.Row) curve { return curve{r.Method, r.Config} })
		sort.SliceStable(curves, func(i, j int) bool { return methodRank(curves[i].method) < methodRank(curves[j].method) })
		dims := distinct(sub, func(r records.Row) int { return r.D })
		sort.Ints(dims)
		var span []float64
		for ci, c := range curves {
			x, values := finalsAtDims(sub, dims, func(r records.Row) bool { return r.Method == c.method && r.Config == c.config })
			name := methodName(c.method)
			if c.config != "" {
				name += ", " + configLegend(c.config)
			}
			dash := solid
			if c.config != "" && ci > 0 && curves[ci-1].method == c.method {
				dash = dashed
			}
			s, err := addPointsCI(p, x, values, dodge(dims, ci, len(curves)), name, methodColor(c.method), dash)
			if err != nil {
				return nil, err
			}
			span = append(span, s...)
		}
		finishDimPanel(p, dims, span)
		panels = append(panels, p)
	}
	return [][]*panel{panels}, nil
}
