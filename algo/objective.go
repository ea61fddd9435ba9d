package algo

// Objective is a black-box validation loss split by validation user, the function
// f(theta) = (1/n) sum_i L(theta, x_i) of equation (1) of the paper. Every task of this
// project and every user pipeline plugged into DP-GIBO implements it.
//
// Losses must be safe to call repeatedly; implementations may reuse internal buffers and
// need not be safe for concurrent use.
type Objective interface {
	// Dim is d, the number of hyperparameters.
	Dim() int
	// Bounds returns the box Theta = [lo, hi] (both of length Dim()). Callers must not
	// modify the returned slices.
	Bounds() (lo, hi []float64)
	// Users is n, the number of validation users.
	Users() int
	// Losses writes dst[i] = L(theta, x_i) for every user i; len(dst) == Users().
	Losses(theta, dst []float64) error
}

// Iteration is what an optimiser reports to its Callback after each iteration.
// Theta is a copy owned by the receiver.
type Iteration struct {
	Iter        int       // iteration index t, starting at 1 after the first step
	Evals       int       // evaluations of Objective.Losses charged so far
	Batch       int       // points evaluated in this iteration (b)
	BatchCapped bool      // the adaptive batch hit MaxBatch before reaching BiasTol
	Trace       float64   // acquisition value alpha reached by the design (NaN if none)
	Theta       []float64 // the released iterate theta^(t)
}

// Callback receives one Iteration per iteration; a non-nil error stops the run and is
// returned by the optimiser.
type Callback func(Iteration) error
