package runner

import (
	"math"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/reproduction"
	"dpgibo/tasks/catalog"
)

// The cost model of a cell: its estimated wall time in seconds on one core of the
// reproduction machine with the OpenBLAS build. The runner starts the longest cells first
// with it, weighs cells in the progress ETA with it and prints it with -plan; it never
// changes an output file. The per-evaluation cost of each task is the task catalog's
// (catalog.EvalSeconds); every other fitted constant is here, fitted to the committed
// timings (docs/reproducing.md, "Cost model", gives the measurements behind each), and
// TestCostEstimateMatchesCommittedTimings keeps every figure with committed timings within
// 1.5x of its measured cell-seconds:
//
//		seconds = perEval * (evals + reports + costSetupEvals) + design
//
//	  - evals is the budget, except for an adaptive batch (BiasTol > 0), which grows until the
//	    gradient's posterior trace falls below BiasTol: costAdaptiveShare of the cap at d = 15,
//	    BiasTol = 0.5, sigma <= 0.05, growing as (0.5/BiasTol)^costAdaptiveSharePower and as
//	    (sigma/0.05)^costAdaptiveNoisePower, at most the whole budget;
//	  - reports are the noiseless losses of DP-GIBO's and GIBO's released thetas, T+1 of them
//	    (score-based methods report points they have evaluated, which costs nothing);
//	  - a fixed-batch design costs costFixedDesign T b^costFixedDesignPower;
//	  - the joint adaptive design costs costAdaptiveDesign at the reference point above,
//	    growing with (0.5/BiasTol)^2, with sigma as the evaluations do and with (d/15)^3, up to
//	    costCappedDesign (budget/1600)^2.7 for a design capped at every iteration;
//	  - the windowed adaptive design (Design.GreedyOnly with Design.MaxKept) costs
//	    costWindowDesign per evaluation at d = 15, growing with (d/15)^2;
//	  - a method's own work beyond its evaluations is its baselines.CostHinter's estimate
//	    (GP-UCB and dp-ucb, TPE, DP-HyPO give one; the others' is negligible).
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
	costUnknownTaskEvalSecs = 1e-3
)

// cellCost is the cell's expected wall time in seconds: its measured time when the committed
// reproduction timed the same cell (same stem, so the same settings), and the cost model's
// estimate otherwise. measured says which. A measured time beats the model most where a
// figure has few cells: a run's cost can depend on where its theta goes (a kernel
// machine's support vectors), so two cells of the same settings and different seeds can
// differ 3x, which no model of the settings can foresee but which repeats with the seed on
// every machine
// (reproduction/bench/plan-check: the committed times predict a run on another CPU within
// 0.79-1.08x per figure).
func cellCost(c cellSpec, stem string) (seconds float64, measured bool) {
	if times, err := reproduction.CellSeconds(); err == nil {
		if s, ok := times[stem]; ok {
			return s, true
		}
	}
	return estimatedCost(c), false
}

// estimatedCost is the cell's estimated wall time in seconds (see the cost model above).
func estimatedCost(c cellSpec) float64 {
	perEval, err := catalog.EvalSeconds(catalog.Spec{Name: c.Task, D: c.D, NTrain: c.NTrain, NVal: c.NVal, Data: c.Data, Precision: cellPrecision(c)})
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
	default:
		if m, ok := registry.Lookup(c.Method); ok {
			if h, ok := m.(baselines.CostHinter); ok {
				design = h.DesignSeconds(c.D, c.Budget)
			}
		}
	}
	if c.local() {
		reports = float64(c.Iters + 1)
	}
	return perEval*(evals+reports+costSetupEvals) + design
}
