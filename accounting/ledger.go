package accounting

import (
	"encoding/json"
	"fmt"
	"math"

	"dpgibo/internal/jsonnum"
)

// DefaultDelta is the delta at which ledgers report an (epsilon, delta)-DP epsilon.
const DefaultDelta = 1e-5

// Ledger is the privacy record of one run. Every method of this project returns one, so
// that private and non-private results are reported with the same accounting.
//
// A private ledger composes its Parts, each a kind of release with its own accounting
// (mu-GDP for every mechanism of this project so far): Mu is their composition, so that
// Mu^2 is the sum of the parts' Mu^2. When a run splits the Mu it was given into parts
// (algo.Settings.Mu into gradients, clip counts and calibration counts) and spends them all, Mu
// is that given Mu, exactly: the parts compose to it to rounding only (mu sqrt(1-s) and
// mu sqrt(s) compose to 0.9999999999999999 for mu = 1, and to other last bits where the
// CPU fuses multiply and add), and the ledger reports the Mu that was asked for and spent.
//
// A Ledger encodes to JSON with the infinities of a non-private run spelled "+Inf", as in
// the result CSVs (encoding/json has no number for them); finite values stay numbers.
type Ledger struct {
	Private bool // false: the released value is not differentially private
	// Mu is the total mu of mu-GDP, the composition of Parts: +Inf when not private, NaN
	// when the release is (Epsilon, Delta)-DP with no mu-GDP guarantee (NewApproxLedger).
	Mu float64
	// Releases is the number of Gaussian releases composed, of every part.
	Releases int
	// StepMu is the mu of each release of the first part: the privatised gradients of
	// DP-GIBO, the only part of the other private methods (+Inf when not private).
	StepMu  float64
	Delta   float64 // delta of the reported (Epsilon, Delta)-DP guarantee
	Epsilon float64 // epsilon at Delta implied by Mu (+Inf when not private)
	// GradientMu, CountMu and CalibrationMu are the parts of Mu spent on the privatised
	// gradients, on the privatised counts of adaptive clipping (0 without it) and on
	// algo.ClipCalibration's counts (0 without it): Mu^2 = GradientMu^2 + CountMu^2 +
	// CalibrationMu^2, to rounding. With a FixedClip, GradientMu = Mu.
	GradientMu    float64
	CountMu       float64
	CalibrationMu float64
	// Parts are the kinds of release composed, in the order above (nil when not private).
	Parts []LedgerPart
}

// Accountings of a ledger part. GDP: Gaussian mechanisms composed as mu-GDP (Dong, Roth
// and Su 2022). PureDP: epsilon-DP releases (Epsilon the part's total by basic
// composition), whose Mu is the tight mu-GDP they imply (PureToGDP); a part
// whose number of trials was capped adds the cap's tail mass as Delta > 0 and has no Mu
// (NaN). RDP: a Renyi-DP curve converted to (Epsilon, Delta)-DP (RDPToEpsDelta),
// with no Mu (NaN).
const (
	GDP    = "mu-GDP"
	PureDP = "pure-DP"
	RDP    = "Renyi-DP"
)

// LedgerPart is one kind of release a ledger composes: Releases releases of one mechanism,
// together Mu-GDP (Accounting GDP), each Mu/sqrt(Releases)-GDP; or together
// (Epsilon, Delta)-DP (Accounting PureDP or RDP), with the Mu-GDP that implies where one
// does (NaN where none does).
type LedgerPart struct {
	// Name says what was released: "gradients", "clip counts" (adaptive clipping),
	// "calibration counts" (algo.ClipCalibration), "releases" (a method's only kind) or
	// "selection" (the one release of a private selection).
	Name       string
	Accounting string
	Mu         float64
	Releases   int
	// Epsilon and Delta are the part's own (epsilon, delta)-DP guarantee where its
	// accounting gives one directly (PureDP: Delta 0, or the cap's tail mass; RDP: the
	// delta of its conversion plus the cap's tail mass); both 0 for a GDP part, whose
	// epsilon is read off the ledger's composed Mu.
	Epsilon, Delta float64
}

// StepMu is the mu of each of the part's releases.
func (p LedgerPart) StepMu() float64 { return StepMu(p.Mu, p.Releases) }

// NonPrivateLedger is the ledger of a method whose output is a deterministic or
// data-dependent function of the validation data without calibrated noise.
func NonPrivateLedger() Ledger {
	inf := math.Inf(1)
	return Ledger{Private: false, Mu: inf, StepMu: inf, Delta: DefaultDelta, Epsilon: inf, GradientMu: inf}
}

// NewLedger records releases Gaussian mechanisms each StepMu(mu, releases)-GDP, composing to
// mu-GDP. mu = +Inf gives a non-private ledger; mu = 0 (a run stopped before its first
// release) gives Epsilon 0. Epsilon is finite for every finite mu whose epsilon float64 can
// hold (mu up to about 1e150), and +Inf beyond.
func NewLedger(mu float64, releases int) Ledger {
	if math.IsInf(mu, 1) {
		l := NonPrivateLedger()
		l.Releases = releases
		return l
	}
	eps := 0.0
	if mu != 0 {
		var err error
		if eps, err = EpsilonForDelta(mu, DefaultDelta); err != nil {
			// Only a negative or NaN mu gets here; no method passes one.
			eps = math.NaN()
		}
	}
	return Ledger{Private: true, Mu: mu, Releases: releases, StepMu: StepMu(mu, releases), Delta: DefaultDelta, Epsilon: eps, GradientMu: mu,
		Parts: []LedgerPart{{Name: "releases", Accounting: GDP, Mu: mu, Releases: releases}}}
}

// NewPureLedger records one release of an eps-DP mechanism (a private selection) as the
// part name: Epsilon eps at Delta 0, and Mu the tight mu-GDP that eps-DP implies
// (PureToGDP), so that the ledger can be read in either currency.
func NewPureLedger(name string, eps float64) (Ledger, error) {
	mu, err := PureToGDP(eps)
	if err != nil {
		return Ledger{}, fmt.Errorf("accounting: NewPureLedger: %w", err)
	}
	return Ledger{Private: true, Mu: mu, Releases: 1, StepMu: mu, Delta: 0, Epsilon: eps, GradientMu: mu,
		Parts: []LedgerPart{{Name: name, Accounting: PureDP, Mu: mu, Releases: 1, Epsilon: eps}}}, nil
}

// NewApproxLedger records one release (a private selection) accounted as (eps, delta)-DP
// with delta > 0 by accounting (PureDP with a capped number of trials, or RDP): Epsilon
// eps, Delta delta, and Mu, GradientMu and StepMu NaN, since no mu-GDP guarantee follows.
func NewApproxLedger(name, accounting string, eps, delta float64) (Ledger, error) {
	switch {
	case accounting != PureDP && accounting != RDP:
		return Ledger{}, fmt.Errorf("accounting: NewApproxLedger: accounting must be %q or %q, got %q", PureDP, RDP, accounting)
	case !(eps >= 0) || math.IsInf(eps, 0):
		return Ledger{}, fmt.Errorf("accounting: NewApproxLedger: epsilon must be finite and >= 0, got %v", eps)
	case !(delta > 0 && delta < 1):
		return Ledger{}, fmt.Errorf("accounting: NewApproxLedger: delta must lie in (0, 1), got %v", delta)
	}
	nan := math.NaN()
	return Ledger{Private: true, Mu: nan, Releases: 1, StepMu: nan, Delta: delta, Epsilon: eps, GradientMu: nan,
		Parts: []LedgerPart{{Name: name, Accounting: accounting, Mu: nan, Releases: 1, Epsilon: eps, Delta: delta}}}, nil
}

// IsZero reports whether l is the zero Ledger, which no method returns: a method that
// forgot its ledger.
func (l Ledger) IsZero() bool {
	return !l.Private && l.Mu == 0 && l.Releases == 0 && l.StepMu == 0 && l.Delta == 0 && l.Epsilon == 0 &&
		l.GradientMu == 0 && l.CountMu == 0 && l.CalibrationMu == 0 && l.Parts == nil
}

// StepMu is the per-release GDP parameter mu/sqrt(T) that composes over T releases to mu-GDP
// (Theorem 2.5 of the paper, GDP composition).
func StepMu(mu float64, releases int) float64 {
	if releases <= 0 {
		return mu
	}
	return mu / math.Sqrt(float64(releases))
}

// ComposeGDP returns sqrt(sum mu_t^2), the GDP parameter of the composition of
// mu_t-GDP mechanisms (Theorem 2.5 of the paper).
func ComposeGDP(mus ...float64) float64 {
	s := 0.0
	for _, m := range mus {
		if math.IsInf(m, 1) {
			return m
		}
		s += m * m
	}
	return math.Sqrt(s)
}

// EpsilonForDelta inverts GDPDelta: the smallest eps >= 0 with delta(eps) <= delta.
// delta(eps) is strictly decreasing in eps, so a bracketing bisection to 1e-12 relative
// precision is exact for practical purposes. It grows like mu^2/2 for large mu; when it
// would exceed 1e300 (mu above about 1e150) it is reported as +Inf.
func EpsilonForDelta(mu, delta float64) (float64, error) {
	switch {
	case math.IsNaN(mu) || mu <= 0:
		return 0, fmt.Errorf("accounting: EpsilonForDelta: mu must be positive, got %v", mu)
	case !(delta > 0 && delta < 1):
		return 0, fmt.Errorf("accounting: EpsilonForDelta: delta must lie in (0, 1), got %v", delta)
	case math.IsInf(mu, 1):
		return math.Inf(1), nil
	}
	if GDPDelta(mu, 0) <= delta {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for GDPDelta(mu, hi) > delta {
		lo, hi = hi, 2*hi
		if hi > 1e300 {
			return math.Inf(1), nil
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := 0.5 * (lo + hi)
		if GDPDelta(mu, mid) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

// ledgerJSON is the JSON form of a Ledger: each float is a number, or the string "+Inf"
// ("-Inf", "NaN") where JSON has no number.
type ledgerJSON struct {
	Private  bool
	Mu       jsonFloat
	Releases int
	StepMu   jsonFloat
	Delta    jsonFloat
	Epsilon  jsonFloat
	// GradientMu and CountMu are absent in ledgers written before adaptive clipping;
	// reading such a ledger takes GradientMu = Mu and CountMu = 0.
	GradientMu *jsonFloat `json:",omitempty"`
	CountMu    *jsonFloat `json:",omitempty"`
	// CalibrationMu is absent in ledgers written before ClipCalibration's part was
	// recorded, and when it is 0; reading such a ledger takes 0.
	CalibrationMu *jsonFloat `json:",omitempty"`
	// Parts is absent in ledgers written before parts were recorded.
	Parts []partJSON `json:",omitempty"`
}

// partJSON is the JSON form of a LedgerPart; Epsilon and Delta are absent when 0 (every
// GDP part).
type partJSON struct {
	Name       string
	Accounting string
	Mu         jsonFloat
	Releases   int
	Epsilon    *jsonFloat `json:",omitempty"`
	Delta      *jsonFloat `json:",omitempty"`
}

// optFloat is v as an optional JSON number: nil for 0.
func optFloat(v float64) *jsonFloat {
	if v == 0 {
		return nil
	}
	f := jsonFloat(v)
	return &f
}

// orZero is *v, or 0 for nil.
func orZero(v *jsonFloat) float64 {
	if v == nil {
		return 0
	}
	return float64(*v)
}

// jsonFloat is a float64 that encodes non-finite values as strings.
type jsonFloat = jsonnum.Float

// MarshalJSON encodes the ledger with +Inf spelled "+Inf" (see Ledger).
func (l Ledger) MarshalJSON() ([]byte, error) {
	gm, cm := jsonFloat(l.GradientMu), jsonFloat(l.CountMu)
	j := ledgerJSON{l.Private, jsonFloat(l.Mu), l.Releases, jsonFloat(l.StepMu), jsonFloat(l.Delta), jsonFloat(l.Epsilon), &gm, &cm, nil, nil}
	j.CalibrationMu = optFloat(l.CalibrationMu)
	for _, p := range l.Parts {
		j.Parts = append(j.Parts, partJSON{p.Name, p.Accounting, jsonFloat(p.Mu), p.Releases, optFloat(p.Epsilon), optFloat(p.Delta)})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Ledger) UnmarshalJSON(b []byte) error {
	var j ledgerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = Ledger{Private: j.Private, Mu: float64(j.Mu), Releases: j.Releases, StepMu: float64(j.StepMu), Delta: float64(j.Delta), Epsilon: float64(j.Epsilon), GradientMu: float64(j.Mu)}
	if j.GradientMu != nil {
		l.GradientMu = float64(*j.GradientMu)
	}
	if j.CountMu != nil {
		l.CountMu = float64(*j.CountMu)
	}
	l.CalibrationMu = orZero(j.CalibrationMu)
	for _, p := range j.Parts {
		l.Parts = append(l.Parts, LedgerPart{p.Name, p.Accounting, float64(p.Mu), p.Releases, orZero(p.Epsilon), orZero(p.Delta)})
	}
	return nil
}

// Append returns l with the mu-GDP parts added after its own (l must be private): Mu the
// composition of all of them, Releases their sum, and GradientMu, CountMu and
// CalibrationMu kept. When a run split total among all those parts and spent them all, Mu
// is total exactly; the parts compose to it to rounding, which Append checks (relative
// 1e-12; a larger gap is a bug in the split, and panics). total 0 keeps the composition.
func (l Ledger) Append(total float64, parts ...LedgerPart) Ledger {
	if !l.Private {
		panic("accounting: Ledger.Append to a non-private ledger")
	}
	all := append(append([]LedgerPart(nil), l.Parts...), parts...)
	mus := make([]float64, len(all))
	releases := 0
	for i, p := range all {
		mus[i] = p.Mu
		releases += p.Releases
	}
	mu := ComposeGDP(mus...)
	if total != 0 {
		if math.Abs(mu-total) > 1e-12*total {
			panic(fmt.Sprintf("accounting: ledger parts compose to mu %v, not to the %v they split", mu, total))
		}
		mu = total
	}
	out := NewLedger(mu, releases)
	out.StepMu, out.Parts = all[0].StepMu(), all
	out.GradientMu, out.CountMu, out.CalibrationMu = l.GradientMu, l.CountMu, l.CalibrationMu
	return out
}
