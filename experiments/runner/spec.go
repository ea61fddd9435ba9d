package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"

	"dpgibo/internal/jsonnum"
)

// Num is a float64 of a suite's configuration that JSON-encodes +Inf (GIBO's mu) as "+Inf",
// so that the configuration can be hashed and written to the manifest.
type Num = jsonnum.Float

var inf = Num(math.Inf(1))

// AlgoConfig holds the DP-GIBO settings of a block (passed to dpgibo and gibo through
// algo.Settings). No field falls through to a default of algo: Batch 0 (with BiasTol 0) is
// d+1 and MaxBatch 0 is 4(d+1) (cellFor), the design options, prior mean and adaptive
// clipping take the pinned values of pinned.go, and Clip, Step and Lengthscale must be set
// for DP-GIBO and GIBO (checkBlock), so that a change of an algo default moves no result.
type AlgoConfig struct {
	Iters       int // T
	Batch       int // fixed b; 0 with BiasTol 0 means d+1
	BiasTol     Num // adaptive batch tolerance (0: fixed batch)
	MaxBatch    int // cap of the adaptive batch; 0 means 4(d+1)
	Clip        Num // B
	Mu          Num // mu of DP-GIBO and of the private baselines
	NoiseStd    Num // sigma told to the surrogate
	Step        Num // eta (AdaGrad)
	Lengthscale Num // RBF length-scale of the surrogate (variance 1)
	// AdaptiveClip, when non-nil, makes dpgibo and gibo clip adaptively from B_0 = Clip
	// (algo.AdaptiveClip); their rows are labelled "adaptive".
	AdaptiveClip *AdaptiveClipConfig
	// Standardise standardises each user's kept observations (algo.Settings.Standardise).
	Standardise bool
	// PriorMean is the surrogate's prior mean, "zero" or "user-mean" ("": user-mean, the
	// value every committed run used; see pinned.go).
	PriorMean string `json:",omitempty"`
	// Design are the batch design options (nil: the values every committed run used; see
	// pinned.go). The tags keep the configuration hash of suites that do not set them.
	Design *DesignConfig `json:",omitempty"`
	// Defaults, when set, runs dpgibo and gibo with algo's defaults instead of the suite's
	// settings, every field of algo.Settings left to them but Iters and Mu: algo's own
	// (Defaults "library", revision AlgoDefaultsRevision) or those before revision 2,
	// pinned ("before"). Their rows are labelled "defaults=NAME". "library" is the library
	// study's one unpinned setting.
	Defaults string `json:",omitempty"`
	// Rule, with Defaults "library", replaces some of algo's defaults by a candidate of
	// the defaults study (a key of DefaultsRules); its rows are labelled "rule=NAME".
	Rule string `json:",omitempty"`
	// DefaultsRevision, with Defaults "library", pins the block to an earlier revision of
	// algo's defaults (0: the current, AlgoDefaultsRevision; Revision2: B calibrated to the
	// lower quartile, which the runner then sets explicitly in a private run), so that the
	// library study's cells keep what they computed and their stems.
	DefaultsRevision int `json:",omitempty"`
	// AutoRevision pins dp-auto to a revision: 0 is pinnedAutoRevision (the first round's
	// rule, as every committed run before the second round), 3 the second round's committed
	// runs (secondRoundAutoRevision), and baselines' current revision of dp-auto runs
	// private.Tune at its target.
	AutoRevision int `json:",omitempty"`
	// Currency is the privacy currency of the methods that read one
	// (a method with ReadsCurrency): "" the primary, (epsilon, 1e-5) of mu-GDP at Mu;
	// CurrencyGDP the secondary, the same mu-GDP (docs/library.md, "Private comparators").
	Currency string `json:",omitempty"`
}

// CurrencyGDP is AlgoConfig.Currency's secondary currency (selection.CurrencyGDP).
const CurrencyGDP = "gdp"

// Values of AlgoConfig.Defaults.
const (
	DefaultsLibrary = "library"
	DefaultsBefore  = "before"
)

// AlgoDefaultsRevision numbers algo's zero-value defaults; a "library" cell records it
// (cellSpec.DefaultsRevision), so that a change of algo's defaults changes the stems of
// the cells that ran with them and -resume never mixes the two. Revision 1: B = S/(4 l)
// fixed, Step = W/(2 sqrt T). Revision 2: B calibrated privately (the lower quartile of the
// users' gradient norms, 5% of mu^2), Step = W/sqrt(T). Revision 3: the upper quartile
// (the leave-one-problem-out study's choice, DefaultsRules["q75"]). TestAlgoDefaultsRevision
// pins the values of the current revision: a change of algo's defaults fails it until the
// revision is raised. AlgoConfig.DefaultsRevision pins a block to revision 2.
const AlgoDefaultsRevision = 3

// Revision2 is the revision the library study's candidates were measured against.
const Revision2 = 2

// DesignConfig are algo's batch design options in the suite's numbers. A zero field is the
// pinned value of pinned.go (the value of every committed run), never algo's current
// default.
type DesignConfig struct {
	// Starts is algo.Settings.DesignStarts (0: 3).
	Starts int `json:"starts,omitempty"`
	// Evals is algo.Settings.DesignEvals (0: 60).
	Evals int `json:"evals,omitempty"`
	// GreedyOnly is algo.Settings.DesignRefine = algo.RefineNone (false: the joint L-BFGS
	// refinement).
	GreedyOnly bool `json:"greedy_only,omitempty"`
	// MaxKept is algo.Settings.MaxKept (0: keep every design point, as Algorithm 1 does).
	MaxKept int `json:"max_kept,omitempty"`
}

// AdaptiveClipConfig is algo.AdaptiveClip in the suite's numbers. A zero field is the
// pinned value of pinned.go (quantile 0.5, rate 0.2, count share 0.1: algo's defaults when
// every committed run was made), never algo's current default.
type AdaptiveClipConfig struct {
	Quantile   Num `json:"quantile,omitempty"`
	Rate       Num `json:"rate,omitempty"`
	CountShare Num `json:"count_share,omitempty"`
}

// Block is one task of a figure crossed with its dimensions, sweep values, methods and
// seeds. Every number of the paper's settings is a field here, so that the manifest
// records it and a fork can change it in one place.
type Block struct {
	// Task is the task's catalog name (catalog.Names).
	Task string
	// CellSuite, when set, is the suite its cells are computed as (the suite column and the
	// cell stems): a study of another suite's figures (the design suite) shares that suite's
	// cells, so neither computes a run twice. Empty: the running suite.
	CellSuite string `json:",omitempty"`
	// Dims are the values of d.
	Dims []int
	// NTrain and NVal are the task's training rows and validation users (0: task default).
	NTrain, NVal int
	// Data selects the task's data set by label ("" is the task's default; catalog.Spec.Data
	// lists the labels each task takes).
	Data string
	// DataSeed seeds the task's data; with DataPerSeed the replication seed is added, so
	// every replication draws fresh data.
	DataSeed    uint64
	DataPerSeed bool
	// Methods are registry names (registry.New).
	Methods []string
	// Seeds is the number of replications (seeds SeedBase+1..SeedBase+Seeds).
	Seeds int
	// SeedBase offsets the seeds (0: seeds from 1), so that a block can run on seeds
	// disjoint from another's (the library study tunes on seeds 101-105).
	SeedBase int `json:",omitempty"`
	// Label, when set, starts the config label of every row of the block ("step=0.06" in
	// "step=0.06,clip=0.2"), so that blocks that differ in an unswept setting stay apart.
	Label string `json:",omitempty"`
	// Algo are the DP-GIBO settings.
	Algo AlgoConfig
	// EvalNoise is the standard deviation of noise injected into every per-user loss the
	// methods observe (0: none).
	EvalNoise Num
	// Sweep names the swept parameter ("" for none): mu, bias_tol, clip, noise_std
	// (sigma told to the surrogate) or noise (injected noise, with the surrogate told the
	// same sigma). Values are its values; methods that do not read the parameter run once.
	Sweep  string
	Values []Num
	// BaselineBudget is the evaluation budget of methods other than dpgibo and gibo
	// (0: Iters*(d+1), the paper's matched budget).
	BaselineBudget int
	// ThetaCoords are the coordinates of theta recorded at every iteration of dpgibo and
	// gibo (negative values count from the end: -1 is the last coordinate).
	ThetaCoords []int
	// Config is the own config of the block's methods that take its type
	// (baselines.Configurable, e.g. gibo.Variant for dpgibo): their cells record it and
	// their rows' labels end with its Label; the other methods run as without it.
	Config baselines.Config `json:",omitempty"`
	// Precision is the task's arithmetic precision (one of catalog.Info.Precisions; "": the
	// task's default), for a task that has a choice. The JSON key is frozen: manifests
	// record it under the name of the first task that had one.
	Precision string `json:"SVRPrecision,omitempty"`
}

// UnmarshalJSON decodes a block as a manifest records it, Config as the type of the first
// of its methods that takes one (baselines.Configurable).
func (b *Block) UnmarshalJSON(data []byte) error {
	type plain Block
	var aux struct {
		plain
		Config json.RawMessage `json:",omitempty"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*b = Block(aux.plain)
	if len(aux.Config) == 0 || string(aux.Config) == "null" {
		return nil
	}
	for _, name := range b.Methods {
		m, ok := registry.Lookup(name)
		ct, takes := m.(baselines.Configurable)
		if !ok || !takes {
			continue
		}
		v := reflect.New(reflect.TypeOf(ct.ConfigType()))
		if err := json.Unmarshal(aux.Config, v.Interface()); err != nil {
			return fmt.Errorf("block of task %s: config of %s: %w", b.Task, name, err)
		}
		b.Config = v.Elem().Interface().(baselines.Config)
		return nil
	}
	return fmt.Errorf("block of task %s: a config, and none of the methods %v takes one", b.Task, b.Methods)
}

// Figure is one named figure of a suite.
type Figure struct {
	// Name is the figure's name (-only=NAME, the CSV file NAME.csv).
	Name string
	// Theta marks a figure whose CSV holds theta paths (records.ThetaRow) rather than
	// loss traces (records.Row).
	Theta  bool
	Blocks []Block
}

// overrideSeeds returns figs with the number of replications of every block that has more
// than one set to seeds (figures of one run, such as fig3f, keep theirs); figs is not
// modified.
func overrideSeeds(figs []Figure, seeds int) []Figure {
	out := make([]Figure, len(figs))
	for fi, f := range figs {
		f.Blocks = append([]Block(nil), f.Blocks...)
		for bi := range f.Blocks {
			if f.Blocks[bi].Seeds > 1 {
				f.Blocks[bi].Seeds = seeds
			}
		}
		out[fi] = f
	}
	return out
}

// figureNames returns the names of figs, in order.
func figureNames(figs []Figure) []string {
	names := make([]string, len(figs))
	for i, f := range figs {
		names[i] = f.Name
	}
	return names
}

// isLocal reports whether method starts from theta0 and takes Algorithm 1's settings
// (baselines.Info.Local).
func isLocal(method string) bool {
	m, ok := registry.Lookup(method)
	return ok && m.Info().Local
}

// methodReads reports whether method reads the swept parameter param
// (baselines.Sweeper); a method that does not is run once per sweep and its cells do not
// record the parameter. A name the registry does not hold, or a method that is not a
// Sweeper, reads everything.
func methodReads(method, param string) bool {
	m, ok := registry.Lookup(method)
	if !ok {
		return true
	}
	sw, ok := m.(baselines.Sweeper)
	return !ok || sw.Sweeps(param)
}

// A currencyReader runs at a guarantee read from mu in a privacy currency (the private
// selections): its cells record AlgoConfig.Currency.
type currencyReader interface {
	ReadsCurrency() bool
}
