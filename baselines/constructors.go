package baselines

import "dpgibo/algo"

// Typed constructors, each with the parameters its method reads: each returns the method
// New(name, Options) returns for those options, as its own type, with the same
// validation. Options.OnScore, a diagnostic hook, is set through New only.

// NewDPGIBO returns DP-GIBO ("dpgibo"): algo.Minimize from theta0 (nil: the box centre)
// with settings s at mu (mu-GDP).
func NewDPGIBO(mu float64, theta0 []float64, s algo.Settings) (*GIBO, error) {
	return typed[*GIBO](newDPGIBO(Options{Mu: mu, Theta0: theta0, Settings: s}))
}

// NewGIBO returns non-private GIBO ("gibo"): DP-GIBO's algorithm with Mu = +Inf, from
// theta0 (nil: the box centre) with settings s.
func NewGIBO(theta0 []float64, s algo.Settings) (*GIBO, error) {
	return typed[*GIBO](newGIBO(Options{Theta0: theta0, Settings: s}))
}

// NewRandom returns random search ("random").
func NewRandom() *Random { return must(typed[*Random](newRandom(Options{}))) }

// NewUCB returns GP-UCB, global Bayesian optimisation ("ucb"), configured by cfg (its zero
// value: the defaults).
func NewUCB(cfg UCBConfig) (*UCB, error) { return typed[*UCB](newUCB(Options{UCB: cfg})) }

// NewTPE returns the Tree-structured Parzen Estimator ("tpe").
func NewTPE() *TPE { return must(typed[*TPE](newTPE(Options{}))) }

// NewCMAES returns CMA-ES ("cmaes").
func NewCMAES() *CMAES { return must(typed[*CMAES](newCMAES(Options{}))) }

// NewGoptunaTPE returns goptuna's TPE sampler ("goptuna-tpe"), or an error when the program
// lacks the go.mod line it needs (see GoptunaTPE).
func NewGoptunaTPE() (*GoptunaTPE, error) { return typed[*GoptunaTPE](newGoptunaTPE(Options{})) }

// NewGoptunaCMAES returns goptuna's CMA-ES ("goptuna-cmaes").
func NewGoptunaCMAES() *GoptunaCMAES { return must(typed[*GoptunaCMAES](newGoptunaCMAES(Options{}))) }

// NewDPRandom returns private random search ("dp-random") at mu (mu-GDP), with lossBound a
// public bound on one user's loss.
func NewDPRandom(mu, lossBound float64) (*DPRandom, error) {
	return typed[*DPRandom](newDPRandom(Options{Mu: mu, LossBound: lossBound}))
}

// NewDPUCB returns private GP-UCB ("dp-ucb") at mu (mu-GDP), with lossBound a public bound
// on one user's loss, configured by cfg (its zero value: the defaults).
func NewDPUCB(mu, lossBound float64, cfg UCBConfig) (*DPUCB, error) {
	return typed[*DPUCB](newDPUCB(Options{Mu: mu, LossBound: lossBound, UCB: cfg}))
}

// must is the method of a constructor that validates nothing (its error is always nil).
func must[T Method](m T, err error) T {
	if err != nil {
		panic(err)
	}
	return m
}

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
