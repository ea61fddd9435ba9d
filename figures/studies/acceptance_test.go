package studies

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
)

// The declared low-SNR study (docs/library.md, "DP-GIBO at low SNR, declared before its
// runs") can be passed: in the bootstrap world of the committed private-tuner cells, a rule
// that runs each cell's true best method passes the declared acceptance, at the declared
// number of cells and seeds, in at least 90% of simulated studies (the bar), and so
// can its second round.
func TestDeclaredAcceptanceIsPassable(t *testing.T) {
	artefacts.Check(t)
	res, err := verdict.ReadDir(filepath.Join("..", "..", "reproduction", "library-private"))
	if err != nil {
		t.Fatal(err)
	}
	world, err := worldCells(res)
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for _, c := range world {
		if c.flagged() {
			flagged++
		}
	}
	// randhie's three cells: its median start lies within 1% of f*.
	if len(world) != 51 || flagged != 3 {
		t.Errorf("%d committed cells, %d flagged; want 51 and 3", len(world), flagged)
	}
	p, err := simulateAcceptance(world, lowSNRCells, lowSNRHalfSeeds, 2000, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cells, seeds %d + %d: the true best method passes %.3f of simulated studies", lowSNRCells, lowSNRHalfSeeds, lowSNRHalfSeeds, p)
	if p < 0.9 {
		t.Errorf("the true best method passes %.3f of simulated studies at %d cells and %d + %d seeds, want at least 0.9", p, lowSNRCells, lowSNRHalfSeeds, lowSNRHalfSeeds)
	}
	// The second round's eight problems, 48 cells before flags (docs/library.md, "DP-GIBO at
	// low SNR, second round"): passable at the same seeds.
	if p48, _ := simulateAcceptance(world, 48, lowSNRHalfSeeds, 2000, rand.New(rand.NewPCG(1, 2))); p48 < 0.9 {
		t.Errorf("the true best method passes %.3f of simulated studies at the second round's 48 cells, want at least 0.9", p48)
	}
	// At the previous rounds' 5 + 5 seeds it would not be passable (0.44 at 36 cells).
	if p5, _ := simulateAcceptance(world, lowSNRCells, 5, 2000, rand.New(rand.NewPCG(1, 2))); p5 >= 0.9 {
		t.Errorf("at 5 + 5 seeds the true best method passes %.3f; the declaration's reason for more seeds is gone", p5)
	}
}
