package runner

import (
	"encoding/json"
	"fmt"
	"math"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"

	"dpgibo/internal/jsonnum"
)

// Num is a float64 of a suite's configuration that JSON-encodes +Inf (GIBO's mu) as "+Inf",
// so that the configuration can be hashed and written to the manifest.
type Num = jsonnum.Float

var inf = Num(math.Inf(1))

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
	// Algo are the DP-GIBO settings, and Iters and Mu every method's.
	Algo algocfg.Config
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
		c, takes, err := registry.DecodeConfig(name, aux.Config)
		if err != nil {
			return fmt.Errorf("block of task %s: %w", b.Task, err)
		}
		if takes {
			b.Config = c
			return nil
		}
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

// A currencyReader runs at a guarantee read from mu in a privacy currency (the private
// selections): its cells record algocfg.Config.Currency.
type currencyReader interface {
	ReadsCurrency() bool
}
