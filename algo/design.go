package algo

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"dpgibo/internal/boxmap"
)

// designer chooses the batch z of Algorithm 1, lines 4-5, by minimising the acquisition
// alpha(z; D_{t-1}, theta^(t)). It sees only the kernel, the design D and theta, never
// user data, so its choices are post-processing of earlier releases.
//
// Points live in the local box [max(lo, theta-r), min(hi, theta+r)] (r = LocalRadius).
// gonum's L-BFGS is unbounded, so each coordinate is optimised through the smooth map
// x = llo + (lhi - llo) * sigmoid(u), which keeps every iterate strictly inside the box.
type designer struct {
	set    Settings
	d      int
	lo, hi []float64 // the box Theta
	st     *gradState
	rng    *rand.Rand

	llo, lhi []float64 // the local box at the current theta
	prev     []float64 // previous design as offsets from the previous theta (rows of d)
}

// designResult is the batch chosen at one iteration.
type designResult struct {
	z      []float64 // b x d, row-major
	b      int
	alpha  float64 // acquisition value alpha(z; D, theta) reached
	capped bool    // adaptive growth stopped at MaxBatch before reaching BiasTol
}

func (g *designer) setLocalBox(theta []float64) {
	r := g.set.LocalRadius
	for j := range theta {
		g.llo[j] = math.Max(g.lo[j], theta[j]-r)
		g.lhi[j] = math.Min(g.hi[j], theta[j]+r)
	}
}

// toBox maps unconstrained u to the local box; dxdu receives the Jacobian's diagonal.
func (g *designer) toBox(x, dxdu, u []float64) {
	d := g.d
	for i, ui := range u {
		j := i % d
		xi, dxi := boxmap.Map(g.llo[j], g.lhi[j]-g.llo[j], ui)
		x[i] = xi
		if dxdu != nil {
			dxdu[i] = dxi
		}
	}
}

// fromBox is the inverse of toBox, keeping u finite at the box faces.
func (g *designer) fromBox(u, x []float64) {
	d := g.d
	for i, xi := range x {
		j := i % d
		u[i] = boxmap.Unmap(g.llo[j], g.lhi[j]-g.llo[j], xi, 1e-6)
	}
}

// minimizeBlock runs L-BFGS on alpha over b points from the start x0 (b x d), against the
// current state of g.st, and returns the best points found and their alpha.
func (g *designer) minimizeBlock(x0 []float64, b int) ([]float64, float64) {
	n := len(x0)
	x := make([]float64, n)
	dxdu := make([]float64, n)
	gx := make([]float64, n)
	u0 := make([]float64, n)
	g.fromBox(u0, x0)
	g.toBox(x, nil, u0)
	best := append([]float64(nil), x...)
	// gonum's line search asks for the value at a point, then for the gradient at the same
	// point: the gradient reuses the work of that value (g.st.value keeps it), so such a
	// pair costs one acquisition evaluation with gradient, not one plus a value.
	valuedAt := append([]float64(nil), x...)
	valuedAlpha, valued := g.st.value(x, b)
	bestAlpha := valuedAlpha
	if !valued {
		bestAlpha = math.Inf(1)
	}
	eval := func(u []float64, grad []float64) float64 {
		g.toBox(x, dxdu, u)
		a, ok := valuedAlpha, valued
		if grad == nil || !valued || !slices.Equal(x, valuedAt) {
			a, ok = g.st.value(x, b)
			copy(valuedAt, x)
			valuedAlpha, valued = a, ok
		}
		if ok && grad != nil {
			g.st.gradient(x, b, gx)
		}
		if !ok || math.IsNaN(a) {
			for i := range grad {
				grad[i] = 0
			}
			return math.Inf(1)
		}
		if a < bestAlpha {
			bestAlpha = a
			copy(best, x)
		}
		for i := range grad {
			grad[i] = gx[i] * dxdu[i]
		}
		return a
	}
	settings := &optimize.Settings{
		FuncEvaluations:   g.set.DesignEvals,
		GradientThreshold: 1e-9,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-10, Relative: 1e-8, Iterations: 5},
	}
	// Line-search failures and evaluation limits end the run early; the best point seen
	// is kept either way, so the error carries no information we need.
	_, _ = boxmap.LBFGS(eval, nil, u0, settings)
	return best, bestAlpha
}

// randomStart writes theta plus a Gaussian perturbation of expected norm about half a
// length-scale, clamped into the local box. Points much farther than a length-scale from
// theta barely inform the gradient there, and the acquisition is flat around them, so
// uniform draws in a high-dimensional box would leave L-BFGS without a slope to follow.
func (g *designer) randomStart(x, theta []float64) {
	scale := 0.5 * g.set.Kernel.Lengthscale / math.Sqrt(float64(g.d))
	for j := range x {
		x[j] = math.Min(math.Max(theta[j]+scale*g.rng.NormFloat64(), g.llo[j]), g.lhi[j])
	}
}

// addGreedyPoint adds one point to the batch under construction: L-BFGS from DesignStarts
// starts (the warm start, when given, plus random starts near theta), keeping the
// best, then commits it to g.st by a block update. It returns the new alpha.
func (g *designer) addGreedyPoint(theta, warm []float64) (point []float64, alpha float64, err error) {
	d := g.d
	alpha = math.Inf(1)
	start := make([]float64, d)
	for s := 0; s < g.set.DesignStarts; s++ {
		if s == 0 && warm != nil {
			copy(start, warm)
		} else {
			g.randomStart(start, theta)
		}
		x, a := g.minimizeBlock(start, 1)
		if a < alpha {
			alpha, point = a, x
		}
	}
	if point == nil {
		return nil, 0, errNotPD
	}
	if err := g.st.grow(rowsOf(point, 1, d)); err != nil {
		return nil, 0, err
	}
	return point, g.st.base, nil
}

// warmStart returns the r-th point of the previous design shifted to theta (clamped into
// the local box), or nil when the previous design has fewer points.
func (g *designer) warmStart(theta []float64, r int) []float64 {
	d := g.d
	if (r+1)*d > len(g.prev) {
		return nil
	}
	x := make([]float64, d)
	for j := range x {
		x[j] = math.Min(math.Max(theta[j]+g.prev[r*d+j], g.llo[j]), g.lhi[j])
	}
	return x
}

// chooseBatch implements Algorithm 1, lines 4-5: it finds the batch size
// b = min{b' : min_{|z|=b'} alpha(z; D_{t-1}, theta^(t)) <= BiasTol} and the batch z
// minimising the acquisition. The state g.st must hold D_{t-1} at theta; on return it
// still does (the batch is not committed).
//
// Adaptive mode (Batch == 0) grows the batch greedily, one L-BFGS-optimised point at a
// time (posterior variance reduction is close to submodular), until alpha <= BiasTol or
// MaxBatch points; fixed mode (Batch > 0) takes the previous iteration's design shifted
// to the new theta when there is one, and grows greedily otherwise. Both end with a joint
// L-BFGS refinement of all b points, unless DesignRefine is RefineNone, which keeps the
// greedy batch (and grows fixed batches greedily every iteration).
func (g *designer) chooseBatch(theta []float64) (designResult, error) {
	d, st := g.d, g.st
	g.setLocalBox(theta)
	m0, base0 := st.m, st.base
	p0 := append([]float64(nil), st.p[:m0*d]...)

	var z []float64
	alpha := st.base
	capped := false
	fixed := g.set.Batch > 0
	if fixed && g.set.DesignRefine == RefineJoint && len(g.prev) >= g.set.Batch*d {
		for r := 0; r < g.set.Batch; r++ {
			z = append(z, g.warmStart(theta, r)...)
		}
	} else {
		for b := 1; ; b++ {
			point, a, err := g.addGreedyPoint(theta, g.warmStart(theta, b-1))
			if err != nil {
				return designResult{}, err
			}
			z = append(z, point...)
			alpha = a
			if fixed {
				if b == g.set.Batch {
					break
				}
				continue
			}
			if alpha <= g.set.BiasTol {
				break
			}
			if b >= g.set.MaxBatch {
				capped = true
				break
			}
		}
		// Back to D_{t-1} for the joint refinement.
		st.m, st.base = m0, base0
		copy(st.p[:m0*d], p0)
	}
	b := len(z) / d
	if g.set.DesignRefine == RefineJoint {
		refined, a := g.minimizeBlock(z, b)
		if a <= alpha || math.IsInf(alpha, 1) || fixed {
			z, alpha = refined, a
		}
	}
	if capped && alpha <= g.set.BiasTol {
		capped = false
	}
	return designResult{z: z, b: b, alpha: alpha, capped: capped}, nil
}

// remember stores the committed design as offsets from theta for the next warm start.
func (g *designer) remember(theta []float64, z []float64) {
	d := g.d
	g.prev = append(g.prev[:0], z...)
	for i := range g.prev {
		g.prev[i] -= theta[i%d]
	}
}
