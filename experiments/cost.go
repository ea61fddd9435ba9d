package main

import (
	"container/heap"
	"math"
	"sort"

	"dpgibo/tasks/catalog"
)

// The cost model of a cell: its estimated wall time in seconds on one core of the
// reproduction machine with the OpenBLAS build. The runner starts the longest cells first
// with it, weighs cells in the progress ETA with it and prints it with -plan; it never
// changes an output file. The per-evaluation cost of each task is the task catalog's
// (catalog.EvalSeconds); every other fitted constant is here. They were fitted to the
// committed timings (reproduction/timings-*.csv, columns setup/design/eval/report seconds),
// and TestCostEstimateMatchesCommittedTimings keeps every figure with committed timings
// within 1.5x of its measured cell-seconds:
//
//		seconds = perEval * (evals + reports + costSetupEvals) + design
//
//	  - evals is the budget, except for an adaptive batch (BiasTol > 0), which grows until
//	    the gradient's posterior trace falls below BiasTol: costAdaptiveShare of the cap at
//	    d = 15, BiasTol = 0.5, sigma <= 0.05 (measured 18-20% on fig3c and clip-sweep), more as
//	    BiasTol falls and as the surrogate's sigma rises (all of it at sigma = 1);
//	  - reports are the noiseless losses of DP-GIBO's and GIBO's released thetas, T+1 of them
//	    (score-based methods report points they have evaluated, which costs nothing);
//	  - a fixed-batch design costs costFixedDesign T b^costFixedDesignPower (measured 0.012,
//	    0.085 and 0.38 s at b = 3, 11, 21, T = 20; 5.8-6.9 s at b = 104, T = 10);
//	  - an adaptive design costs costAdaptiveDesign at the reference point above (measured
//	    0.9-1.7 s), growing with (0.5/BiasTol)^2, with sigma and cubically with d, up to
//	    costCappedDesign for a design capped at every one of 25 iterations of 64 points
//	    (about 165 s measured at sigma = 1 in noise-misspec), scaled by (budget/1600)^2.7;
//	  - the adaptive design of the design study (greedy growth, a window of kept points:
//	    Design.GreedyOnly with Design.MaxKept) costs costWindowDesign per evaluation at
//	    d = 15 (measured 0.86-1.33 ms on fig3c, fig3ab and noise-misspec), growing with d^2;
//	  - GP-UCB refits its GP on every observation: costUCB budget^3 (measured 0.34, 1.9 and
//	    12.6 s at budgets 75, 150 and 275).
const (
	costSetupEvals          = 5
	costFixedDesign         = 2.2e-5
	costFixedDesignPower    = 2.2
	costAdaptiveShare       = 0.18
	costAdaptiveDesign      = 1.3
	costCappedDesign        = 165
	costAdaptiveNoisePower  = 1.7
	costAdaptiveSharePower  = 0.7
	costWindowDesign        = 1.05e-3
	costUCB                 = 6e-7
	costUnknownTaskEvalSecs = 1e-3
)

// estimatedCost is the cell's estimated wall time in seconds (see the cost model above).
func estimatedCost(c CellSpec) float64 {
	perEval, err := catalog.EvalSeconds(catalog.Spec{Name: c.Task, D: c.D, NTrain: c.NTrain, NVal: c.NVal, Data: c.Data})
	if err != nil {
		perEval = costUnknownTaskEvalSecs // a task the catalog does not know (tests, forks)
	}
	d, budget := float64(c.D), float64(c.Budget)
	evals, reports, design := budget, 0.0, 0.0
	switch {
	case c.local() && c.BiasTol > 0:
		tolRatio := 0.5 / float64(c.BiasTol)
		noiseGrowth := math.Pow(max(float64(c.NoiseStd), 0.05)/0.05, costAdaptiveNoisePower)
		evals = budget * min(1, costAdaptiveShare*math.Pow(tolRatio, costAdaptiveSharePower)*noiseGrowth)
		design = min(costAdaptiveDesign*tolRatio*tolRatio*noiseGrowth*math.Pow(d/15, 3),
			costCappedDesign*math.Pow(budget/1600, 2.7))
		if w := c.Design; w != nil && w.GreedyOnly && w.MaxKept > 0 {
			design = costWindowDesign * evals * (d / 15) * (d / 15)
		}
	case c.local():
		design = costFixedDesign * float64(c.Iters) * math.Pow(float64(c.Batch), costFixedDesignPower)
	case c.Method == "ucb" || c.Method == "dp-ucb":
		design = costUCB * budget * budget * budget
	}
	if c.local() {
		reports = float64(c.Iters + 1)
	}
	return perEval*(evals+reports+costSetupEvals) + design
}

// wallSeconds is the estimated wall time of running cells of the given costs on workers
// workers, longest first (as Runner.Execute orders them): each cell goes to the worker that
// frees first.
func wallSeconds(costs []float64, workers int) float64 {
	if workers < 1 {
		workers = 1
	}
	sorted := append([]float64(nil), costs...)
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	free := make(floatHeap, min(workers, max(len(sorted), 1)))
	end := 0.0
	for _, c := range sorted {
		t := free[0] + c
		free[0] = t
		heap.Fix(&free, 0)
		end = max(end, t)
	}
	return end
}

// floatHeap is a min-heap of the times at which workers free.
type floatHeap []float64

func (h floatHeap) Len() int           { return len(h) }
func (h floatHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h floatHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *floatHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *floatHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
