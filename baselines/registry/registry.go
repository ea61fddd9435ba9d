// Package registry holds every tuning method of dpgibo by name, as tasks/catalog holds the
// tasks: the runner builds the methods a figure names from one Options, and asks a
// method's prototype (Lookup) what it is and what it can do before it runs. Each method is
// its family's type (packages gibo, selection, score, bo and goptuna under baselines);
// importing package private adds the library's one call, "dp-auto". Register adds a method
// of one's own.
package registry

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/bo"
	"dpgibo/baselines/gibo"
	"dpgibo/baselines/goptuna"
	"dpgibo/baselines/score"
	"dpgibo/baselines/selection"
	"dpgibo/baselines/zo"
)

// Options configure the methods of the registry: each constructor copies into its
// method's typed configuration the fields it reads. The zero value of every field but Mu
// (for private methods) is usable.
type Options struct {
	// Settings are DP-GIBO's settings, read by the DP-GIBO family ("dpgibo", "gibo",
	// "dpgibo-safe", "dpgibo-hybrid"). Their Mu is replaced by Mu when that is non-zero;
	// "gibo" runs at +Inf.
	Settings algo.Settings
	// Theta0 is the start of the local methods (nil: a uniform draw from the box, as the
	// first draws from rng) and of dp-zo (nil: the box's centre).
	Theta0 []float64
	// Mu is the total mu of mu-GDP of the private methods, and the privacy level the
	// private selections convert through Currency. It must be positive; math.Inf(1) runs
	// the same code without privacy noise.
	Mu float64
	// LossBound is Lmax, the public upper bound on one user's loss used by the private
	// methods, which clip every per-user loss to [0, Lmax] (0: the objective's
	// LossBound(), algo.LossBounder). The DP-GIBO family, when it is positive, declares it
	// to algo.Minimize (algo.WithLossBound).
	LossBound float64
	// AutoRevision is the revision of dp-auto to run (0: the current one).
	AutoRevision int
	// LogLoss declares that each user's loss is a classifier's log loss with clamped
	// probabilities, a public fact dp-auto's rule may read.
	LogLoss bool
	// UCB configures the GP of "ucb", "dp-ucb" and "dp-hypo".
	UCB bo.UCBConfig
	// Currency is the privacy level at which the private selections run for Mu (default
	// selection.CurrencyEpsDelta, the (epsilon, 1e-5) of Mu-GDP).
	Currency selection.Currency
	// Select configures the private selections with a random number of trials (its zero
	// value: the declared settings).
	Select selection.SelectConfig
	// Config is the method's own settings (nil: none), of the type its prototype takes
	// (baselines.Configurable); New refuses it for a method that takes none or another type.
	Config baselines.Config
	// OnScore, when non-nil, receives every score a score-based method observes, in order:
	// the mean loss for the non-private methods; for dp-random and dp-ucb the noisy clipped
	// mean, a public release of their mechanisms; for the selections with a random number
	// of trials each trial's noisy score, which is NOT a release: their theorems cover the
	// winner only (dp-rnm passes none). theta is a copy. It lets audits and tests see the
	// mechanisms' outputs without reaching into the methods.
	OnScore func(theta []float64, score float64)
}

// entry is a method of the registry: its prototype (which answers Info and the
// capabilities) and its constructor.
type entry struct {
	proto baselines.Method
	ctor  func(Options) (baselines.Method, error)
}

// entries lists every method in legend order.
var entries = []entry{
	{gibo.DPGIBO{}, func(o Options) (baselines.Method, error) {
		s := withMu(o)
		if v, ok := o.Config.(gibo.Variant); ok {
			s = v.Apply(s)
		}
		m := gibo.DPGIBO{Settings: s, Theta0: o.Theta0, LossBound: o.LossBound}
		return m, m.Check()
	}},
	{gibo.GIBO{}, func(o Options) (baselines.Method, error) {
		return gibo.GIBO{Settings: o.Settings, Theta0: o.Theta0, LossBound: o.LossBound}, nil
	}},
	{score.Random{}, func(o Options) (baselines.Method, error) { return score.Random{OnScore: o.OnScore}, nil }},
	{bo.UCB{}, func(o Options) (baselines.Method, error) {
		m := bo.UCB{Config: o.UCB, OnScore: o.OnScore}
		return m, m.Check()
	}},
	{score.TPE{}, func(o Options) (baselines.Method, error) { return score.TPE{OnScore: o.OnScore}, nil }},
	{score.CMAES{}, func(o Options) (baselines.Method, error) { return score.CMAES{OnScore: o.OnScore}, nil }},
	{goptuna.TPE{}, func(o Options) (baselines.Method, error) {
		m := goptuna.TPE{OnScore: o.OnScore}
		return m, m.Check()
	}},
	{goptuna.CMAES{}, func(o Options) (baselines.Method, error) { return goptuna.CMAES{OnScore: o.OnScore}, nil }},
	{score.DPRandom{}, func(o Options) (baselines.Method, error) {
		return score.DPRandom{Mu: o.Mu, LossBound: o.LossBound, OnScore: o.OnScore}, baselines.CheckMu("dp-random", o.Mu)
	}},
	{bo.DPUCB{}, func(o Options) (baselines.Method, error) {
		m := bo.DPUCB{Mu: o.Mu, LossBound: o.LossBound, Config: o.UCB, OnScore: o.OnScore}
		return m, m.Check()
	}},
	{bo.UCBScaled{}, func(o Options) (baselines.Method, error) {
		m := bo.UCBScaled{Config: o.UCB, OnScore: o.OnScore}
		return m, m.Check()
	}},
	{bo.DPUCBScaled{}, func(o Options) (baselines.Method, error) {
		m := bo.DPUCBScaled{Mu: o.Mu, LossBound: o.LossBound, Config: o.UCB, OnScore: o.OnScore}
		return m, m.Check()
	}},
	{zo.DPZO{}, func(o Options) (baselines.Method, error) {
		s := zo.DefaultSettings
		if c, ok := o.Config.(zo.Settings); ok {
			s = c
		}
		m := zo.DPZO{Mu: o.Mu, LossBound: o.LossBound, Theta0: o.Theta0}.WithSettings(s)
		return m, m.Check()
	}},
	{selection.RNM{}, func(o Options) (baselines.Method, error) {
		m := selection.RNM{Mu: o.Mu, Currency: o.Currency, LossBound: o.LossBound}
		return m, pureSelection(m.Info().Name, o)
	}},
	{selection.Geometric{}, func(o Options) (baselines.Method, error) {
		m := selection.Geometric{Mu: o.Mu, Currency: o.Currency, LossBound: o.LossBound, TailShare: o.Select.TailShare, OnScore: o.OnScore}
		return m, pureSelection(m.Info().Name, o)
	}},
	{selection.NegBin{}, func(o Options) (baselines.Method, error) {
		m := selection.NegBin{Mu: o.Mu, LossBound: o.LossBound, Select: o.Select, OnScore: o.OnScore}
		return m, rdpSelection(m.Info().Name, o)
	}},
	{selection.Poisson{}, func(o Options) (baselines.Method, error) {
		m := selection.Poisson{Mu: o.Mu, LossBound: o.LossBound, TailShare: o.Select.TailShare, OnScore: o.OnScore}
		return m, rdpSelection(m.Info().Name, o)
	}},
	{bo.DPHyPO{}, func(o Options) (baselines.Method, error) {
		m := bo.DPHyPO{Mu: o.Mu, LossBound: o.LossBound, Select: o.Select, UCB: o.UCB, OnScore: o.OnScore}
		if err := rdpSelection(m.Info().Name, o); err != nil {
			return m, err
		}
		return m, m.Check()
	}},
	{gibo.Safe{}, func(o Options) (baselines.Method, error) {
		m := gibo.Safe{Settings: withMu(o), Theta0: o.Theta0, LossBound: o.LossBound}
		m.Settings.MaxEvals = 0 // the method splits the budget itself
		return m, m.Check()
	}},
	{gibo.Hybrid{}, func(o Options) (baselines.Method, error) {
		m := gibo.Hybrid{Settings: withMu(o), Theta0: o.Theta0, LossBound: o.LossBound}
		m.Settings.MaxEvals = 0 // the method splits the budget itself
		return m, m.Check()
	}},
}

// withMu is o's Settings with Mu replaced by o.Mu when that is non-zero.
func withMu(o Options) algo.Settings {
	s := o.Settings
	if o.Mu != 0 {
		s.Mu = o.Mu
	}
	return s
}

// pureSelection checks the options of a pure-DP selection (dp-rnm, dp-select-geometric):
// mu, its settings and the epsilon mu gives in its currency.
func pureSelection(name string, o Options) error {
	if err := baselines.CheckMu(name, o.Mu); err != nil {
		return err
	}
	if _, err := o.Select.Resolved(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	_, err := selection.PureEpsilon(o.Mu, o.Currency)
	return err
}

// rdpSelection checks the options of a Renyi-DP selection (dp-select-negbin,
// dp-select-poisson, dp-hypo): mu, its settings, and the primary currency.
func rdpSelection(name string, o Options) error {
	if err := baselines.CheckMu(name, o.Mu); err != nil {
		return err
	}
	if _, err := o.Select.Resolved(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if o.Currency != selection.CurrencyEpsDelta {
		return fmt.Errorf("%s: is Renyi-DP, which implies no mu-GDP: run it at CurrencyEpsDelta, not %v", name, o.Currency)
	}
	return nil
}

// lookup returns the entry called name.
func lookup(name string) (entry, bool) {
	for _, e := range entries {
		if e.proto.Info().Name == name {
			return e, true
		}
	}
	return entry{}, false
}

// New returns the method registered under name, configured by opt. An unknown name is an
// error that lists the known ones.
func New(name string, opt Options) (baselines.Method, error) {
	e, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("registry: unknown method %q (known methods: %s)", name, strings.Join(Names(), ", "))
	}
	if !Takes(e.proto, opt.Config) {
		return nil, fmt.Errorf("registry: method %q takes no config of type %T", name, opt.Config)
	}
	m, err := e.ctor(opt)
	if err != nil {
		return nil, fmt.Errorf("registry: method %q: %w", name, err)
	}
	return m, nil
}

// Takes reports whether the method m (a prototype) takes the config c: c is nil, or of the
// type m's ConfigType gives (baselines.Configurable).
func Takes(m baselines.Method, c baselines.Config) bool {
	if c == nil {
		return true
	}
	ct, ok := m.(baselines.Configurable)
	return ok && reflect.TypeOf(ct.ConfigType()) == reflect.TypeOf(c)
}

// DecodeConfig decodes data, a method's own config as JSON records it, as the type the
// method registered under name takes (baselines.Configurable); ok is false, and nothing is
// decoded, when the method takes none or the registry does not hold it.
func DecodeConfig(name string, data []byte) (c baselines.Config, ok bool, err error) {
	m, found := Lookup(name)
	ct, takes := m.(baselines.Configurable)
	if !found || !takes {
		return nil, false, nil
	}
	v := reflect.New(reflect.TypeOf(ct.ConfigType()))
	if err := json.Unmarshal(data, v.Interface()); err != nil {
		return nil, true, fmt.Errorf("config of %s: %w", name, err)
	}
	return v.Elem().Interface().(baselines.Config), true, nil
}

// Lookup returns the prototype of the method registered under name (what it is and what
// it can do, unconfigured), and false for a name the registry does not hold.
func Lookup(name string) (baselines.Method, bool) {
	e, ok := lookup(name)
	return e.proto, ok
}

// Names returns the registered method names, sorted.
func Names() []string {
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.proto.Info().Name)
	}
	slices.Sort(names)
	return names
}

// Methods returns every registered method's Info in legend order.
func Methods() []baselines.Info {
	out := make([]baselines.Info, len(entries))
	for i, e := range entries {
		out[i] = e.proto.Info()
	}
	return out
}

// Register adds a method to the registry, after the built-in ones: the way to run a method
// of one's own through the runner. proto describes it (its Info and capabilities; a zero
// value of its type will do) and ctor builds it from Options. A name already registered,
// an empty name or a nil constructor is an error.
func Register(proto baselines.Method, ctor func(Options) (baselines.Method, error)) error {
	if proto == nil {
		return fmt.Errorf("registry: Register: nil prototype")
	}
	name := proto.Info().Name
	switch {
	case name == "":
		return fmt.Errorf("registry: Register: empty method name")
	case ctor == nil:
		return fmt.Errorf("registry: Register %q: nil constructor", name)
	}
	if _, ok := lookup(name); ok {
		return fmt.Errorf("registry: Register %q: the name is taken", name)
	}
	entries = append(entries, entry{proto, ctor})
	return nil
}
