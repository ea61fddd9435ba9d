package suites

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dpgibo/baselines/gibo"
	"dpgibo/experiments/runner"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// The low-SNR study is what docs/library.md declares: sixteen held-out problems (at least
// four log losses, four others and four real tables) that no earlier round used, each with
// 60 seeds, then the second round's eight (four log losses, four others, one a real table)
// that neither used; training figures that hold only the new blocks (no committed cell run
// again); the three candidates on dpgibo alone; dp-auto at its target revision at both
// targets.
func TestLowSNRIsTheDeclaredStudy(t *testing.T) {
	figs, err := Figures(LowSNR, "")
	if err != nil {
		t.Fatal(err)
	}
	problem := func(b runner.Block) string {
		return fmt.Sprint(b.Task, "/", b.Data, "/", b.Dims, "/", b.NTrain, "/", b.NVal)
	}
	used := map[string]bool{}
	for _, f := range libraryPrivateFigures() {
		used[problem(f.Blocks[0])] = true
	}
	type count struct{ problems, logLoss, other, real int }
	var train int
	var held, round2 count
	for _, f := range figs {
		var variants []gibo.Variant
		for _, b := range f.Blocks {
			if v, ok := b.Config.(gibo.Variant); ok {
				variants = append(variants, v)
				if !slices.Equal(b.Methods, []string{"dpgibo"}) {
					t.Errorf("%s: a candidate block runs %v", f.Name, b.Methods)
				}
			}
			wantAuto := autoLowSNRRevision
			if strings.HasPrefix(f.Name, lowSNRTrainPrefix) {
				wantAuto = autoTargetRevision
			} else if strings.HasPrefix(f.Name, lowSNRRound2Prefix) {
				wantAuto = autoRound2Revision
			}
			if slices.Contains(b.Methods, autoMethod) && b.Algo.AutoRevision != wantAuto {
				t.Errorf("%s: dp-auto at revision %d", f.Name, b.Algo.AutoRevision)
			}
		}
		if !slices.Equal(variants, lowSNRCandidates) {
			t.Errorf("%s: candidates %v", f.Name, variants)
		}
		if strings.HasPrefix(f.Name, lowSNRTrainPrefix) {
			train++
			for _, b := range f.Blocks {
				if b.Config == nil && slices.Contains(b.Methods, "dpgibo-safe") {
					t.Errorf("%s runs a committed block again", f.Name)
				}
			}
			continue
		}
		n := &held
		if strings.HasPrefix(f.Name, lowSNRRound2Prefix) {
			n = &round2
		}
		n.problems++
		b := f.Blocks[0]
		if b.Seeds != 60 || b.SeedBase != 0 {
			t.Errorf("%s: seeds %d from %d", f.Name, b.Seeds, b.SeedBase+1)
		}
		if used[problem(b)] {
			t.Errorf("%s was used by an earlier round", f.Name)
		}
		used[problem(b)] = true
		task, err := catalog.New(catalog.Spec{Name: b.Task, Data: b.Data, D: b.Dims[0], NTrain: b.NTrain, NVal: b.NVal, Seed: b.DataSeed})
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if l, ok := task.(tasks.LogLosser); ok && l.LogLoss() {
			n.logLoss++
		} else {
			n.other++
		}
		if b.Data != "" && b.Data != "synthetic" {
			n.real++
		}
	}
	if train != 16 || held.problems != 16 || held.logLoss < 4 || held.other < 4 || held.real < 4 {
		t.Errorf("%d training and %d held-out problems (%d log losses, %d others, %d real tables)", train, held.problems, held.logLoss, held.other, held.real)
	}
	if round2 != (count{problems: 8, logLoss: 4, other: 4, real: 1}) {
		t.Errorf("second round: %+v", round2)
	}
}
