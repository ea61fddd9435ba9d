package zopilot

import (
	"math"
	"path/filepath"
	"testing"

	"dpgibo/baselines/zo"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
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

// dp-zo's default is the committed pilot's choice: the pilot table has one chosen setting,
// and it is zo.DefaultSettings.
func TestDefaultIsTheCommittedChoice(t *testing.T) {
	artefacts.Check(t)
	rows, err := records.ReadFile[Row](filepath.Join("..", "..", "reproduction", "zo-pilot", File))
	if err != nil {
		t.Fatal(err)
	}
	var chosen []Row
	for _, r := range rows {
		if r.Chosen {
			chosen = append(chosen, r)
		}
	}
	if len(rows) != 60*(len(problems)+1) || len(chosen) != 1 ||
		(zo.Settings{Step: chosen[0].Step, Smoothing: chosen[0].Smoothing, ClipShare: chosen[0].ClipShare}) != zo.DefaultSettings {
		t.Errorf("%d rows, chosen %+v; want 300 rows and one chosen, zo.DefaultSettings %+v", len(rows), chosen, zo.DefaultSettings)
	}
}
