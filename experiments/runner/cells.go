package runner

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/tasks/catalog"
)

// cellSpec is everything that determines the output of one run: one task at one d, one
// method, one configuration and one replication seed. Two figures that need the same run
// share its cell (fig3f reuses fig2b's first DP-GIBO and GIBO runs). The cell's file name
// ends with a hash of this struct, so -resume never reuses a cell computed with other
// settings.
type cellSpec struct {
	Suite    string `json:"suite"`
	Task     string `json:"task"`
	D        int    `json:"d"`
	NTrain   int    `json:"n_train"`
	NVal     int    `json:"n_val"`
	DataSeed uint64 `json:"data_seed"`
	// DataSource says where a task that reads data from outside the module found them
	// (catalog.External.Source: a file, or the stand-in), so that results on the stand-in
	// are never resumed as results on the real file.
	DataSource string `json:"data_source,omitempty"`
	// Data is the block's data selection (Block.Data; "" for the task's default).
	Data   string `json:"data,omitempty"`
	Method string `json:"method"`
	// MethodRevision is the method's baselines.Info.Revision when above 1 (absent in
	// every cell computed before the method's first change).
	MethodRevision int `json:"method_revision,omitempty"`
	Seed           int `json:"seed"`
	Budget         int `json:"budget"`
	EvalNoise      Num `json:"eval_noise"`
	// Mu is the mu of dpgibo and of the private baselines (+Inf for the others).
	Mu Num `json:"mu"`
	// Settings of dpgibo and gibo (algocfg.Spec: their frozen encoding); zero for methods
	// that do not read them.
	algocfg.Spec
	// Currency is the privacy currency of a method that reads one (algocfg.Config.Currency),
	// absent for the primary currency.
	Currency string `json:"currency,omitempty"`
	// Precision is the task's arithmetic precision (catalog.Info.Precisions), present only
	// where it differs from the task's first (which every cell of the task used before it
	// had a choice). The key is frozen: the one task with a choice wrote it first.
	Precision string `json:"svr_precision,omitempty"`
	// Config is the JSON encoding of the method's own config (Block.Config), present only in
	// the cells of a method that takes one: a cell run with it never shares a stem with a
	// cell run without it, and every cell before it keeps its stem. config is the typed
	// value the cell runs with.
	Config json.RawMessage  `json:"config,omitempty"`
	config baselines.Config `json:"-"`
}

// local reports whether the cell's method starts from theta0 (DP-GIBO, GIBO).
func (c cellSpec) local() bool { return algocfg.Local(c.Method) }

// hash is the hex SHA-256 of the spec's JSON encoding.
func (c cellSpec) hash() string {
	b, err := json.Marshal(c)
	if err != nil {
		// Every field is a plain value or Num; Marshal cannot fail.
		panic(fmt.Sprintf("experiments: encoding cell spec: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Stem is the cell's file name stem: readable fields, then 12 hex digits of the hash.
func (c cellSpec) Stem() string {
	return fmt.Sprintf("%s-d%d-%s-s%d-%s", c.Task, c.D, c.Method, c.Seed, c.hash()[:12])
}

// cellRef is one use of a cell by a figure: the cell and its configuration label there.
type cellRef struct {
	Cell  int    // index into the run's cell list
	Label string // records.Row.Config
}

// runPlan is the deduplicated cell list of a run and the cells each figure uses, in order.
type runPlan struct {
	Figures []Figure
	Cells   []cellSpec
	Stems   []string
	Uses    [][]cellRef // per figure
	Users   [][]string  // per cell: figure names using it
}

// makePlan enumerates the cells of figs: for each figure, block, d, sweep value, method and
// seed in that order, skipping cells already listed. The order is the cell order of every
// output file and of shard assignment.
func makePlan(suite string, figs []Figure, source string) (*runPlan, error) {
	p := &runPlan{Figures: figs, Uses: make([][]cellRef, len(figs))}
	index := map[string]int{}
	for fi, fig := range figs {
		// A cell a figure uses under two labels (fig-private-select's DP-GIBO at mu = 1 is the
		// same run at both currencies) is listed once per label, so that its rows appear
		// under each; a figure counts it once among its users.
		seen := map[cellRef]bool{}
		for bi, b := range fig.Blocks {
			if err := checkBlock(b); err != nil {
				return nil, fmt.Errorf("figure %s, block %d (%s): %w", fig.Name, bi+1, b.Task, err)
			}
			values := b.Values
			if b.Sweep == "" {
				values = []Num{0}
			}
			for _, d := range b.Dims {
				for _, v := range values {
					for _, m := range b.Methods {
						if b.Sweep != "" && !algocfg.Reads(m, b.Sweep) && v != values[0] {
							continue
						}
						for seed := b.SeedBase + 1; seed <= b.SeedBase+b.Seeds; seed++ {
							spec, label := cellFor(suite, b, d, v, m, seed, source)
							key := spec.Stem()
							i, ok := index[key]
							if !ok {
								i = len(p.Cells)
								index[key] = i
								p.Cells = append(p.Cells, spec)
								p.Stems = append(p.Stems, key)
								p.Users = append(p.Users, nil)
							}
							ref := cellRef{Cell: i, Label: label}
							if !seen[ref] {
								seen[ref] = true
								p.Uses[fi] = append(p.Uses[fi], ref)
								if !slices.Contains(p.Users[i], fig.Name) {
									p.Users[i] = append(p.Users[i], fig.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	return p, nil
}

// checkBlock rejects blocks that cannot run.
func checkBlock(b Block) error {
	switch {
	case len(b.Dims) == 0:
		return fmt.Errorf("no dimensions")
	case len(b.Methods) == 0:
		return fmt.Errorf("no methods")
	case b.Seeds < 1:
		return fmt.Errorf("seeds must be >= 1, got %d", b.Seeds)
	case b.Algo.Iters < 1:
		return fmt.Errorf("iterations must be >= 1, got %d", b.Algo.Iters)
	case b.Sweep != "" && len(b.Values) == 0:
		return fmt.Errorf("sweep %q has no values", b.Sweep)
	}
	if b.Sweep != "" && !slices.Contains(baselines.SweptParams, b.Sweep) {
		return fmt.Errorf("unknown sweep parameter %q (known: %s)", b.Sweep, strings.Join(baselines.SweptParams, ", "))
	}
	if r := b.Algo.AutoRevision; r != 0 {
		for _, m := range b.Methods {
			if rev, ok := revisionerOf(m); ok && !rev.KnownRevision(r) {
				return fmt.Errorf("method %s: unknown revision %d (AutoRevision)", m, r)
			}
		}
	}
	if b.SeedBase < 0 {
		return fmt.Errorf("seed base must be >= 0, got %d", b.SeedBase)
	}
	if b.Config != nil {
		taken := false
		for _, m := range b.Methods {
			if proto, ok := registry.Lookup(m); ok && registry.Takes(proto, b.Config) {
				taken = true
			}
		}
		if !taken {
			return fmt.Errorf("config %T is taken by none of the methods %s", b.Config, strings.Join(b.Methods, ", "))
		}
		if _, err := json.Marshal(b.Config); err != nil {
			return fmt.Errorf("config %T: %w", b.Config, err)
		}
	}
	if b.Precision != "" {
		info, _ := catalog.Lookup(b.Task)
		switch {
		case len(info.Precisions) == 0:
			return fmt.Errorf("task %s has no choice of precision (Precision %q)", b.Task, b.Precision)
		case !slices.Contains(info.Precisions, b.Precision):
			return fmt.Errorf("unknown precision %q of task %s (known: %s)", b.Precision, b.Task, strings.Join(info.Precisions, ", "))
		}
	}
	if err := b.Algo.Check(b.Methods, b.Sweep); err != nil {
		return err
	}
	for _, d := range b.Dims {
		if d < 1 {
			return fmt.Errorf("dimension must be >= 1, got %d", d)
		}
	}
	return nil
}

// cellFor builds the spec of one run and its label within the figure.
func cellFor(suite string, b Block, d int, value Num, method string, seed int, source string) (cellSpec, string) {
	if b.CellSuite != "" {
		suite = b.CellSuite
	}
	a := b.Algo
	evalNoise := b.EvalNoise
	if b.Sweep != "" && algocfg.Reads(method, b.Sweep) {
		switch b.Sweep {
		case "bias_tol":
			a.BiasTol = value
		case "clip":
			a.Clip = value
		case "noise_std":
			a.NoiseStd = value
		case "noise":
			a.NoiseStd = value
			evalNoise = value
		}
	}
	label := algocfg.Label(b.Label, b.Sweep, float64(value), method, b.Config, b.Algo)
	dataSeed := b.DataSeed
	if b.DataPerSeed {
		dataSeed += uint64(seed)
	}
	c := cellSpec{
		Suite: suite, Task: b.Task, D: d, NTrain: b.NTrain, NVal: b.NVal, DataSeed: dataSeed, Data: b.Data,
		Method: method, Seed: seed, EvalNoise: evalNoise, Mu: inf,
	}
	if _, ok := revisionerOf(method); ok {
		c.MethodRevision = cmp.Or(a.AutoRevision, pinnedAutoRevision)
	} else if m, ok := registry.Lookup(method); ok && m.Info().Revision > 1 {
		c.MethodRevision = m.Info().Revision
	}
	if m, ok := registry.Lookup(method); ok {
		if cr, ok := m.(currencyReader); ok && cr.ReadsCurrency() {
			c.Currency = a.Currency
		}
	}
	if m, ok := registry.Lookup(method); ok && b.Config != nil && registry.Takes(m, b.Config) {
		enc, err := json.Marshal(b.Config)
		if err != nil {
			// checkBlock encoded it already.
			panic(fmt.Sprintf("experiments: encoding the config of %s: %v", method, err))
		}
		c.Config, c.config = enc, b.Config
	}
	if info, ok := catalog.Lookup(b.Task); ok {
		if readsExternal(info, b) {
			c.DataSource = source
		}
		c.Precision = specPrecision(info, b.Precision)
	}
	if c.local() {
		c.Spec = a.Spec(d, b.ThetaCoords)
		c.Budget = c.Spec.Budget()
	} else {
		c.Budget = cmp.Or(b.BaselineBudget, a.Iters*(d+1))
	}
	if algocfg.Reads(method, "mu") {
		c.Mu = a.Mu
		if b.Sweep == "mu" {
			c.Mu = value
		}
	}
	return c, label
}

// stream derives a 64-bit stream id for math/rand/v2's PCG from strings, so that every
// random source of a cell is fixed by the cell alone.
func stream(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}
