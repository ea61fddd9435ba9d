package studies

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"dpgibo/experiments/algocfg"
	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
	"dpgibo/private"
)

// The library study (experiments' -suite=defaults): each figure defaultsPrefix+PROBLEM holds
// DP-GIBO with algo's defaults (configs "defaults=NAME") beside a hand-tuned setting, paired
// by seed. Declared before it ran (docs/library.md):
const (
	// defaultsPrefix names the study's figures.
	defaultsPrefix = "defaults-"
	// DefaultsFile is the study's verdict, written beside Files when dir holds its figures.
	DefaultsFile = "defaults.csv"
	// DefaultsRatio is the bar: the defaults' median final loss at most DefaultsRatio times
	// the hand-tuned median.
	DefaultsRatio = 1.05
	// defaultsTuneSeeds is the first seed of the tuning seeds: a figure whose hand-tuned
	// rows come from a grid (configs "step=...") picks the grid point of lowest median final
	// loss over seeds above defaultsTuneSeeds, and compares it on the seeds at or below.
	defaultsTuneSeeds = 100
)

// DefaultsRow is one problem and defaults variant of the library study (defaults.csv).
type DefaultsRow struct {
	Problem string `csv:"problem"`
	Task    string `csv:"task"`
	D       int    `csv:"d"`
	// Hand is the hand-tuned setting's config ("" for the paper's own settings) and Variant
	// the defaults' config.
	Hand    string `csv:"hand"`
	Variant string `csv:"variant"`
	Pairs   int    `csv:"pairs"`
	// MedianHand and MedianVariant are the median final losses over the paired seeds; Ratio
	// is MedianVariant/MedianHand and Pass is Ratio <= DefaultsRatio.
	MedianHand    float64 `csv:"median_hand"`
	MedianVariant float64 `csv:"median_variant"`
	Ratio         float64 `csv:"ratio"`
	Pass          bool    `csv:"pass"`
	// Estimate, CILow, CIHigh: the Hodges-Lehmann estimate of variant - hand (paired by
	// seed) and its 95% interval.
	Estimate float64 `csv:"estimate"`
	CILow    float64 `csv:"ci_low"`
	CIHigh   float64 `csv:"ci_high"`
	// GapRatio is median(f - f*) of the variant over that of the hand-tuned setting, where
	// the setting has an f*.
	GapRatio records.OptFloat `csv:"gap_ratio"`
	// MedianStart is the median loss at theta0 over the variant's paired seeds, and
	// AboveStart says whether MedianVariant lies above it (the run ended, in the median,
	// worse than it began).
	MedianStart float64 `csv:"median_start"`
	AboveStart  bool    `csv:"above_start"`
}

// defaultsStudy judges every figure of the library study in res.
func defaultsStudy(res *verdict.Results) ([]DefaultsRow, error) {
	var out []DefaultsRow
	for _, fig := range res.Figures {
		problem, ok := strings.CutPrefix(fig, defaultsPrefix)
		if !ok {
			continue
		}
		settings, err := figureSettings(res.Dir, fig)
		if err != nil {
			return nil, err
		}
		curves := res.CurvesOf(fig)
		kinds := map[*verdict.Curve]defaultsKind{}
		for _, c := range curves {
			s, ok := settings[c.Config]
			if !ok {
				return nil, fmt.Errorf("figure %s: config %q is the label of no block of its manifest", fig, c.Config)
			}
			kinds[c] = kindOf(s)
		}
		hand, err := defaultsHand(curves, kinds)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fig, err)
		}
		fstar, haveFStar := res.FStar.Lookup(hand)
		handLoss := map[int]float64{}
		for _, r := range hand.Runs {
			if r.Seed <= defaultsTuneSeeds {
				handLoss[r.Seed] = r.Loss
			}
		}
		for _, c := range curves {
			if kinds[c] != defaultsVariant {
				continue
			}
			d, vh, vv := pairedFinals(handLoss, c.Runs)
			if len(d) < 2 {
				continue
			}
			var starts []float64
			for _, r := range c.Runs {
				if _, ok := handLoss[r.Seed]; ok {
					starts = append(starts, r.Start)
				}
			}
			t, err := pairedHL(d)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", fig, c.Config, err)
			}
			row := DefaultsRow{Problem: problem, Task: c.Task, D: c.D, Hand: hand.Config, Variant: c.Config, Pairs: len(d),
				MedianHand: stats.Median(vh), MedianVariant: stats.Median(vv), Estimate: t.Estimate, CILow: t.CILow, CIHigh: t.CIHigh}
			row.Ratio = row.MedianVariant / row.MedianHand
			row.Pass = row.Ratio <= DefaultsRatio
			row.MedianStart = stats.Median(starts)
			row.AboveStart = row.MedianVariant > row.MedianStart
			if haveFStar {
				gh, gv := make([]float64, len(vh)), make([]float64, len(vv))
				for i := range vh {
					gh[i], gv[i] = vh[i]-fstar, vv[i]-fstar
				}
				if m := stats.Median(gh); m > 0 {
					row.GapRatio = records.Some(stats.Median(gv) / m)
				}
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// defaultsKind is what a curve of a library-study figure is.
type defaultsKind int

const (
	defaultsHandTuned defaultsKind = iota // the paper's hand-tuned setting
	defaultsGrid                          // a point of the study's own grid (a labelled block)
	defaultsVariant                       // algo's defaults (Algo.Defaults set)
)

// kindOf is the kind of the curves of a block with setting s.
func kindOf(s setting) defaultsKind {
	switch {
	case s.algo.Defaults != "":
		return defaultsVariant
	case s.blockLabel != "":
		return defaultsGrid
	}
	return defaultsHandTuned
}

// defaultsHand returns the hand-tuned curve of a study figure (kinds says each curve's
// kind): the one hand-tuned curve, else the grid point of lowest median final loss over
// the tuning seeds.
func defaultsHand(curves []*verdict.Curve, kinds map[*verdict.Curve]defaultsKind) (*verdict.Curve, error) {
	var grid []*verdict.Curve
	for _, c := range curves {
		switch kinds[c] {
		case defaultsGrid:
			grid = append(grid, c)
		case defaultsHandTuned:
			return c, nil
		}
	}
	if len(grid) == 0 {
		return nil, fmt.Errorf("no hand-tuned curve")
	}
	sort.Slice(grid, func(i, j int) bool { return grid[i].Config < grid[j].Config })
	var best *verdict.Curve
	bestMedian := math.Inf(1)
	for _, c := range grid {
		var tune []float64
		for _, r := range c.Runs {
			if r.Seed > defaultsTuneSeeds {
				tune = append(tune, r.Loss)
			}
		}
		if len(tune) == 0 {
			return nil, fmt.Errorf("grid point %s has no tuning seeds (above %d)", c.Config, defaultsTuneSeeds)
		}
		if m := stats.Median(tune); m < bestMedian {
			best, bestMedian = c, m
		}
	}
	return best, nil
}

// LibraryVariant is the label of the library study's variant that runs algo's own
// defaults.
var LibraryVariant = algocfg.Label("", "", 0, private.DPGIBO.String(), nil, algocfg.Config{Defaults: algocfg.DefaultsLibrary})
