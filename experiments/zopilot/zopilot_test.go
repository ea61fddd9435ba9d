package zopilot

import (
	"math"
	"testing"

	"dpgibo/baselines/zo"
)

// The choice is the setting of smallest mean log ratio over the problems; a tie goes to the
// smaller step, then the larger smoothing, then the smaller clip.
func TestChoose(t *testing.T) {
	grid := []zo.Settings{{Step: 0.1, Smoothing: 0.03, ClipShare: 1}, {Step: 0.05, Smoothing: 0.01, ClipShare: 1}, {Step: 0.05, Smoothing: 0.03, ClipShare: 3}, {Step: 0.05, Smoothing: 0.03, ClipShare: 1}}
	ratios := [][]float64{{-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}, {-1, -1, -1, -1}}
	var rows []Row
	for _, r := range ratios {
		for _, v := range r {
			rows = append(rows, Row{LogRatio: v})
		}
	}
	_, chosen := choose(grid, rows)
	if chosen != (zo.Settings{Step: 0.05, Smoothing: 0.03, ClipShare: 1}) {
		t.Errorf("tie broken to %+v", chosen)
	}
	rows[0].LogRatio = -5 // the first setting now best on average
	all, chosen := choose(grid, rows)
	if chosen != grid[0] || !all[0].Chosen || all[1].Chosen || math.Abs(all[0].LogRatio-(-2)) > 1e-12 {
		t.Errorf("chose %+v; rows %+v", chosen, all)
	}
}
