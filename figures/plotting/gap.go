package plotting

import (
	"errors"
	"io/fs"
	"math"
	"strings"

	"gonum.org/v1/plot"

	"dpgibo/internal/records"
)

// gapFloor is the smallest suboptimality drawn: a loss within gapFloor of f* sits on the
// floor of the log axis instead of at minus infinity.
const gapFloor = 1e-9

// starKey identifies a data setting, as the columns of fstar.csv and the figure CSVs do.
type starKey struct {
	task, data        string
	d, nUsers, nTrain int
}

// readFStar reads the best-known optima at path (fstar.csv); a missing file is no optima.
func readFStar(path string) (map[starKey]float64, error) {
	rows, err := records.ReadFile[records.FStar](path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make(map[starKey]float64, len(rows))
	for _, r := range rows {
		out[starKey{r.Task, r.Data, r.D, r.NUsers, r.NTrain}] = r.FStar
	}
	return out, nil
}

// gapRows returns rows with every loss replaced by its suboptimality loss - f* (at least
// gapFloor), and false when some row's setting has no f*.
func gapRows(rows []records.Row, stars map[starKey]float64) ([]records.Row, bool) {
	if len(rows) == 0 || len(stars) == 0 {
		return nil, false
	}
	out := make([]records.Row, len(rows))
	for i, r := range rows {
		fstar, ok := stars[starKey{r.Task, r.Data, r.D, r.NUsers, r.NTrain}]
		if !ok {
			return nil, false
		}
		r.Loss = math.Max(r.Loss-fstar, gapFloor)
		out[i] = r
	}
	return out, true
}

// asGap turns the loss panels of a drawing made from gapRows into suboptimality panels: a
// log y axis and "- f*" in the axis label. Panels that do not show a loss (evaluations, the
// privacy SNR) are left alone.
func asGap(panels [][]*panel) {
	for _, row := range panels {
		for _, p := range row {
			if p == nil || !isLossLabel(p.Y.Label.Text) {
				continue
			}
			p.Y.Label.Text += " − f*"
			p.Title.Text = strings.Replace(p.Title.Text, "\n", ": gap to the best-known optimum f*\n", 1)
			if _, ok := p.Y.Scale.(plot.LogScale); !ok {
				setLogY(p.Plot)
			}
			if p.Y.Min < gapFloor {
				p.Y.Min = gapFloor
			}
			if p.Y.Max <= p.Y.Min {
				// Every gap on the floor: gonum would widen the empty range by ±1,
				// below zero on a log axis.
				p.Y.Max = 10 * p.Y.Min
			}
		}
	}
}

// isLossLabel reports whether an axis label names a validation loss.
func isLossLabel(label string) bool {
	return strings.Contains(label, "loss") || strings.Contains(label, "MSE")
}
