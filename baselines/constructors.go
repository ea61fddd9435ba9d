package baselines

// Typed constructors: each returns the method New(name, opt) returns, as its own type, with
// the same validation of opt.

// NewDPGIBO returns DP-GIBO ("dpgibo"): algo.Minimize with opt.Settings and opt.Mu.
func NewDPGIBO(opt Options) (*GIBO, error) { return typed[*GIBO](newDPGIBO(opt)) }

// NewGIBO returns non-private GIBO ("gibo"): DP-GIBO's algorithm with Mu = +Inf.
func NewGIBO(opt Options) (*GIBO, error) { return typed[*GIBO](newGIBO(opt)) }

// NewRandom returns random search ("random").
func NewRandom(opt Options) (*Random, error) { return typed[*Random](newRandom(opt)) }

// NewUCB returns GP-UCB, global Bayesian optimisation ("ucb"), configured by opt.UCB.
func NewUCB(opt Options) (*UCB, error) { return typed[*UCB](newUCB(opt)) }

// NewTPE returns the Tree-structured Parzen Estimator ("tpe").
func NewTPE(opt Options) (*TPE, error) { return typed[*TPE](newTPE(opt)) }

// NewCMAES returns CMA-ES ("cmaes").
func NewCMAES(opt Options) (*CMAES, error) { return typed[*CMAES](newCMAES(opt)) }

// NewGoptunaTPE returns goptuna's TPE sampler ("goptuna-tpe"); see GoptunaTPE for the go.mod
// line it needs.
func NewGoptunaTPE(opt Options) (*GoptunaTPE, error) { return typed[*GoptunaTPE](newGoptunaTPE(opt)) }

// NewGoptunaCMAES returns goptuna's CMA-ES ("goptuna-cmaes").
func NewGoptunaCMAES(opt Options) (*GoptunaCMAES, error) {
	return typed[*GoptunaCMAES](newGoptunaCMAES(opt))
}

// NewDPRandom returns private random search ("dp-random") at opt.Mu.
func NewDPRandom(opt Options) (*DPRandom, error) { return typed[*DPRandom](newDPRandom(opt)) }

// NewDPUCB returns private GP-UCB ("dp-ucb") at opt.Mu.
func NewDPUCB(opt Options) (*DPUCB, error) { return typed[*DPUCB](newDPUCB(opt)) }

// typed converts a registry constructor's result to its concrete type.
func typed[T Method](m Method, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	return m.(T), nil
}

// Every method type implements Method.
var (
	_ Method = (*GIBO)(nil)
	_ Method = (*Random)(nil)
	_ Method = (*UCB)(nil)
	_ Method = (*TPE)(nil)
	_ Method = (*CMAES)(nil)
	_ Method = (*GoptunaTPE)(nil)
	_ Method = (*GoptunaCMAES)(nil)
	_ Method = (*DPRandom)(nil)
	_ Method = (*DPUCB)(nil)
)
