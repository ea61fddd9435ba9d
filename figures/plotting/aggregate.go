package plotting

import (
	"math"
	"slices"
	"sort"

	"dpgibo/figures/stats"
	"dpgibo/internal/records"
)

// bandLevel is the confidence level of the bands drawn around every median.
const bandLevel = 0.95

// band is a curve summarised over seeds: at every X, the median of the seeds' values and
// the distribution-free confidence interval of that median (order statistics, at
// bandLevel; stats.MedianCI), so that a band shows how well the seeds pin the median down.
// With too few seeds for bandLevel (fewer than 6 at 95%) no such interval exists and
// [Lo, Hi] is the range of the seeds, as stats.MedianCI returns it; Coverage tells which.
type band struct {
	X, Median, Lo, Hi []float64
	// Seeds is the number of replications summarised.
	Seeds int
	// Coverage is the smallest coverage of [Lo, Hi] as an interval for the median over the
	// band's abscissae (stats.MedianCI; 0 for one seed).
	Coverage float64
}

// IsCI reports whether [Lo, Hi] is a confidence interval of the median at bandLevel, and
// not merely the range of too few seeds.
func (b band) IsCI() bool { return isCI(b.Coverage) }

// isCI reports whether an interval of the median with this coverage (stats.MedianCI) may be
// called a bandLevel confidence interval.
func isCI(coverage float64) bool { return coverage >= bandLevel }

// point is one (x, y) of one seed's series.
type point struct{ x, y float64 }

// summarise turns one series per seed into a band. Each series is a step function: at x its
// value is that of its last point with abscissa <= x (the released theta does not change
// between reports). The grid is the union of the series' abscissae from the first x at
// which every seed has reported.
func summarise(series map[int][]point) band {
	if len(series) == 0 {
		return band{}
	}
	seeds := make([]int, 0, len(series))
	start := math.Inf(-1)
	var grid []float64
	for s, pts := range series {
		seeds = append(seeds, s)
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		if len(pts) > 0 && pts[0].x > start {
			start = pts[0].x
		}
		for _, p := range pts {
			grid = append(grid, p.x)
		}
	}
	sort.Ints(seeds)
	sort.Float64s(grid)
	grid = slices.Compact(grid)
	b := band{Seeds: len(seeds), Coverage: 1}
	vals := make([]float64, len(seeds))
	pos := make([]int, len(seeds))
	for _, x := range grid {
		if x < start {
			continue
		}
		for k, s := range seeds {
			pts := series[s]
			for pos[k]+1 < len(pts) && pts[pos[k]+1].x <= x {
				pos[k]++
			}
			vals[k] = pts[pos[k]].y
		}
		lo, hi, coverage := stats.MedianCI(vals, bandLevel)
		b.Coverage = math.Min(b.Coverage, coverage)
		b.X = append(b.X, x)
		b.Median = append(b.Median, stats.Median(vals))
		b.Lo = append(b.Lo, lo)
		b.Hi = append(b.Hi, hi)
	}
	return b
}

// seriesBy collects one series per seed from rows, with x and y read from each row.
func seriesBy(rows []records.Row, x, y func(records.Row) float64) map[int][]point {
	out := map[int][]point{}
	for _, r := range rows {
		out[r.Seed] = append(out[r.Seed], point{x(r), y(r)})
	}
	return out
}

// finals returns the last row of every seed (the released theta of each run), in seed
// order.
func finals(rows []records.Row) []records.Row {
	last := map[int]records.Row{}
	var seeds []int
	for _, r := range rows {
		if _, ok := last[r.Seed]; !ok {
			seeds = append(seeds, r.Seed)
		}
		last[r.Seed] = r
	}
	sort.Ints(seeds)
	out := make([]records.Row, len(seeds))
	for i, s := range seeds {
		out[i] = last[s]
	}
	return out
}

// groupKey identifies one curve of a figure.
type groupKey struct {
	Task, Method, Config string
	D                    int
}

// groups splits rows into curves, keeping the order in which each first appears (the
// runner's cell order, which is the order of the paper's settings).
func groups(rows []records.Row) ([]groupKey, map[groupKey][]records.Row) {
	var keys []groupKey
	m := map[groupKey][]records.Row{}
	for _, r := range rows {
		k := groupKey{r.Task, r.Method, r.Config, r.D}
		if _, ok := m[k]; !ok {
			keys = append(keys, k)
		}
		m[k] = append(m[k], r)
	}
	return keys, m
}

// distinct returns the distinct values of f over rows in order of first appearance.
func distinct[T comparable](rows []records.Row, f func(records.Row) T) []T {
	var out []T
	seen := map[T]bool{}
	for _, r := range rows {
		v := f(r)
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
