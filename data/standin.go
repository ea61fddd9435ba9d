package data

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

const (
	// StandinLabel is the data label of the stand-in: every CSV row, manifest and figure
	// title fed by it says this, never "ctslice".
	StandinLabel = "ctslice-synthetic"
	// RealLabel is the data label of the real UCI data.
	RealLabel = "ctslice"
	// StandinSeed is the seed of the stand-in used by the tasks: the stand-in is one fixed
	// data set, like the real file, and a task's own seed only draws rows and features.
	StandinSeed uint64 = 206 // UCI's id of the data set
	// standinPatients is the number of patients of the full-size stand-in (ids 0..96, as the
	// largest id of the UCI file).
	standinPatients = 97
)

// keyFeatures are the stand-in's key features: noise-free periodic profiles of the axial
// position, so that the target is a nonlinear function of any few of them.
var keyFeatures = func() []int {
	k := make([]int, 12)
	for i := range k {
		k[i] = 13 + 32*i
	}
	return k
}()

// Noise of the stand-in: key features carry N(0, standinKeyNoise^2) noise, and each
// patient's anatomy is shifted along the axis by N(0, standinShiftSD^2) relative to the
// target's scale.
const (
	standinKeyNoise = 0.05
	standinShiftSD  = 0.015
)

// standinRings is the number of radial rings of the stand-in's histogram layout: feature j
// lies in ring (j mod 48) / 6.
const standinRings = 8

// Standin returns the offline stand-in for the CT-slice data with FullRows rows: the same
// shape and value conventions as the UCI file, generated from seed. It is used when the
// real file is absent and is labelled StandinLabel wherever it is used.
//
// Generative model (all draws from one PCG stream seeded by seed, in a fixed order):
//
//   - Patients: min(97, rows/2) patients, ids 0, 1, ...; each gets a share of
//     the rows proportional to a weight drawn from U(0.4, 1.6); rows are grouped by patient.
//   - Each patient's scan covers axial positions z in [start, start+length] with start ~
//     U(0.01, 0.2) and length ~ U(0.15, 0.35), in ascending or descending order (fair coin),
//     with jitter of +-0.3 slice spacings; the patient also has a body size s ~ U(0.85, 1.15)
//     and a contrast c ~ U(0.9, 1.1).
//   - Target: reference = 180 z, so it lies in [0, 180] (in practice about 2..100,
//     like the UCI file).
//   - Features: feature j belongs to ring (j mod 48)/6 of standinRings; the body radius at
//     z is s*(0.85 + 0.2 sin(4 pi z + 1)), and a bin whose ring centre (ring+0.5)/8 lies
//     beyond it is outside the image: value -0.25. Inside, feature j is a
//     bump A_j c exp(-((z-m_j)/w_j)^2/2) plus N(0, sd_j^2) noise, with m_j ~ U(-0.05, 0.65),
//     w_j ~ U(0.02, 0.1), A_j ~ U(0.3, 1), sd_j ~ U(0.01, 0.1), set to 0 below 0.1 and
//     clipped to [0, 1] (so most entries are 0, as in the UCI file).
//   - Key features (12 of them) are always inside the image and noise-free:
//     0.5 + 0.5 sin(2 pi f_k z + phi_k) with f_k ~ U(0.8, 2.5), phi_k ~ U(0, 2 pi). The
//     target is therefore a nonlinear function of a few features, and every other feature
//     carries noisy information about it.
func Standin(seed uint64) *CTSlice { return standinRows(FullRows, seed) }

// standinRows is Standin with a given number of rows (at least 2).
func standinRows(rows int, seed uint64) *CTSlice {
	if rows < 2 {
		panic(fmt.Sprintf("data: standinRows needs at least 2 rows, got %d", rows))
	}
	rng := rand.New(rand.NewPCG(seed, 0x637473_6c696365))
	uniform := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

	// Per-feature profile parameters.
	type profile struct {
		centre, width, amp, noiseSD float64
		ring                        int
		key                         bool
		freq, phase                 float64
	}
	prof := make([]profile, Features)
	for j := range prof {
		prof[j] = profile{
			centre:  uniform(-0.05, 0.65),
			width:   uniform(0.02, 0.1),
			amp:     uniform(0.3, 1),
			noiseSD: uniform(0.01, 0.1),
			ring:    (j % 48) / 6,
		}
	}
	for _, j := range keyFeatures {
		prof[j].key = true
		prof[j].freq = uniform(0.8, 2.5)
		prof[j].phase = uniform(0, 2*math.Pi)
	}

	// Patients and their row counts.
	patients := min(standinPatients, rows/2)
	weights := make([]float64, patients)
	total := 0.0
	for p := range weights {
		weights[p] = uniform(0.4, 1.6)
		total += weights[p]
	}
	counts := make([]int, patients)
	assigned := 0
	for p := range counts {
		counts[p] = max(2, int(float64(rows)*weights[p]/total))
		assigned += counts[p]
	}
	for p := 0; assigned != rows; p = (p + 1) % patients {
		switch {
		case assigned < rows:
			counts[p]++
			assigned++
		case counts[p] > 2:
			counts[p]--
			assigned--
		}
	}

	out := &CTSlice{
		PatientID: make([]int, rows),
		X:         mat.NewDense(rows, Features, nil),
		Y:         make([]float64, rows),
	}
	row := 0
	for p, m := range counts {
		start := uniform(0.01, 0.2)
		length := uniform(0.15, 0.35)
		size := uniform(0.85, 1.15)
		contrast := uniform(0.9, 1.1)
		descending := rng.IntN(2) == 1
		shift := standinShiftSD * rng.NormFloat64()
		for k := 0; k < m; k++ {
			step := float64(k)
			if descending {
				step = float64(m - 1 - k)
			}
			z := start + length*(step+uniform(-0.3, 0.3))/float64(m-1)
			z = math.Min(1, math.Max(0, z))
			za := z + shift // the position the anatomy shows
			radius := size * (0.85 + 0.2*math.Sin(4*math.Pi*za+1))
			x := out.X.RawRowView(row)
			for j := range x {
				pj := &prof[j]
				if pj.key {
					v := 0.5 + 0.5*math.Sin(2*math.Pi*pj.freq*za+pj.phase) + standinKeyNoise*rng.NormFloat64()
					x[j] = math.Min(1, math.Max(0, v))
					continue
				}
				if (float64(pj.ring)+0.5)/standinRings > radius {
					x[j] = outsideImage
					continue
				}
				t := (za - pj.centre) / pj.width
				v := pj.amp*contrast*math.Exp(-t*t/2) + pj.noiseSD*rng.NormFloat64()
				if v < 0.1 {
					v = 0
				}
				x[j] = math.Min(1, v)
			}
			out.PatientID[row] = p
			out.Y[row] = targetMax * z
			row++
		}
	}
	return out
}
