// Package zopilot is dp-zo's pilot (docs/peers.md, "dp-zo's settings, from a pilot declared
// before it ran"): every setting of a declared grid on four synthetic problems no figure
// uses, at mu = 1 and DP-GIBO's budget at T = 20, seeds 1001-1010; the setting with the
// smallest mean over the problems of log(median final loss / median start loss) becomes
// dp-zo's default (zo.DefaultSettings).
package zopilot

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"

	"dpgibo/baselines/zo"
	"dpgibo/figures/stats"
	"dpgibo/internal/pool"
	"dpgibo/internal/records"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// File is the pilot's table, written into the output folder.
const File = "zo-pilot.csv"

// The declared pilot.
var (
	problems = []struct {
		name string
		spec catalog.Spec
	}{
		{"bowl10", catalog.Spec{Name: "bowl", D: 10, NVal: 100, Seed: 7}},
		{"ridge8", catalog.Spec{Name: "ridge", D: 8, NTrain: 100, NVal: 100, Seed: 7}},
		{"logistic10", catalog.Spec{Name: "logreg", Data: "synthetic", D: 10, NTrain: 200, NVal: 200, Seed: 7}},
		{"grouplasso6", catalog.Spec{Name: "grouplasso", D: 6, NTrain: 100, NVal: 100, Seed: 7}},
	}
	steps      = []float64{0.02, 0.05, 0.1, 0.2, 0.5}
	smoothings = []float64{0.01, 0.03, 0.1}
	clipShares = []float64{0.1, 0.3, 1, 3}
	seeds      = []uint64{1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010}
)

const (
	mu    = 1
	iters = 20
)

// Row is one setting on one problem (Problem "all": the criterion over the problems, with
// Chosen marking the pilot's choice).
type Row struct {
	Problem     string  `csv:"problem"`
	Step        float64 `csv:"step"`
	Smoothing   float64 `csv:"smoothing"`
	ClipShare   float64 `csv:"clip_share"`
	MedianFinal float64 `csv:"median_final"`
	MedianStart float64 `csv:"median_start"`
	LogRatio    float64 `csv:"log_ratio"`
	Chosen      bool    `csv:"chosen"`
}

// Run runs the pilot on workers workers, writes out/zo-pilot.csv and returns the chosen
// settings.
func Run(ctx context.Context, out string, workers int, progress io.Writer) (zo.Settings, error) {
	var grid []zo.Settings
	for _, st := range steps {
		for _, sm := range smoothings {
			for _, c := range clipShares {
				grid = append(grid, zo.Settings{Step: st, Smoothing: sm, ClipShare: c})
			}
		}
	}
	built := make([]tasks.Task, len(problems))
	for i, p := range problems {
		t, err := catalog.New(p.spec)
		if err != nil {
			return zo.Settings{}, fmt.Errorf("zo pilot, problem %s: %w", p.name, err)
		}
		built[i] = t
	}
	rows := make([]Row, len(grid)*len(problems))
	var lock sync.Mutex
	err := pool.RunWithProgress(ctx, workers, len(rows), progress, "zo pilot", func(ctx context.Context, k int) error {
		s, pi := grid[k/len(problems)], k%len(problems)
		row, err := runSetting(ctx, built[pi], s)
		if err != nil {
			return fmt.Errorf("zo pilot, %s at %+v: %w", problems[pi].name, s, err)
		}
		row.Problem = problems[pi].name
		lock.Lock()
		rows[k] = row
		lock.Unlock()
		return nil
	})
	if err != nil {
		return zo.Settings{}, err
	}
	all, chosen := choose(grid, rows)
	data, err := records.Marshal(append(rows, all...))
	if err != nil {
		return zo.Settings{}, err
	}
	return chosen, records.WriteFileAtomic(filepath.Join(out, File), data)
}

// runSetting runs s on task for every seed: each seed's start uniform in the box from the
// seed alone, its run's randomness from the seed and another stream.
func runSetting(ctx context.Context, task tasks.Task, s zo.Settings) (Row, error) {
	lo, hi := task.Bounds()
	d, users := task.Dim(), task.Users()
	losses := make([]float64, users)
	meanLoss := func(theta []float64) (float64, error) {
		if err := task.Losses(theta, losses); err != nil {
			return 0, err
		}
		sum := 0.0
		for _, l := range losses {
			sum += l
		}
		return sum / float64(len(losses)), nil
	}
	var finals, starts []float64
	for _, seed := range seeds {
		start := rand.New(rand.NewPCG(seed, 0x7a6f7374617274))
		theta0 := make([]float64, d)
		for j := range theta0 {
			theta0[j] = lo[j] + (hi[j]-lo[j])*start.Float64()
		}
		m := zo.DPZO{Mu: mu, LossBound: task.LossBound(), Theta0: theta0}.WithSettings(s)
		res, err := m.Run(ctx, task, iters*(d+1), rand.New(rand.NewPCG(seed, 0x7a6f72756e)), nil)
		if err != nil {
			return Row{}, err
		}
		f, err := meanLoss(res.Theta)
		if err != nil {
			return Row{}, err
		}
		s0, err := meanLoss(theta0)
		if err != nil {
			return Row{}, err
		}
		finals, starts = append(finals, f), append(starts, s0)
	}
	r := Row{Step: s.Step, Smoothing: s.Smoothing, ClipShare: s.ClipShare, MedianFinal: stats.Median(finals), MedianStart: stats.Median(starts)}
	r.LogRatio = math.Log(r.MedianFinal / r.MedianStart)
	return r, nil
}

// choose returns one "all" row per setting (the mean log ratio over the problems) and the
// declared choice: the smallest mean, ties to the smaller step, the larger smoothing, the
// smaller clip.
func choose(grid []zo.Settings, rows []Row) ([]Row, zo.Settings) {
	var all []Row
	for gi, s := range grid {
		sum := 0.0
		for pi := range problems {
			sum += rows[gi*len(problems)+pi].LogRatio
		}
		all = append(all, Row{Problem: "all", Step: s.Step, Smoothing: s.Smoothing, ClipShare: s.ClipShare, LogRatio: sum / float64(len(problems)),
			MedianFinal: math.NaN(), MedianStart: math.NaN()})
	}
	best := slices.MinFunc(all, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.LogRatio, b.LogRatio), cmp.Compare(a.Step, b.Step), cmp.Compare(b.Smoothing, a.Smoothing), cmp.Compare(a.ClipShare, b.ClipShare))
	})
	for i, r := range all {
		all[i].Chosen = r.Step == best.Step && r.Smoothing == best.Smoothing && r.ClipShare == best.ClipShare
	}
	return all, zo.Settings{Step: best.Step, Smoothing: best.Smoothing, ClipShare: best.ClipShare}
}
