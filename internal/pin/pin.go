// Package pin records per-user losses bit for bit, so that a change meant to be a pure
// speed-up of a task's Losses can show that it changes nothing: a Losses value is the
// SHA-256 of every loss's IEEE bits and three users' losses, written in hexadecimal.
package pin

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
)

// Losses is one pin: the digest of all losses and the losses of three chosen users.
type Losses struct {
	Sum   string     // SHA-256 of the losses' little-endian IEEE bits, in user order
	Users [3]float64 // the losses of the chosen users
}

// Of returns the pin of losses for the users at indices users.
func Of(losses []float64, users [3]int) Losses {
	h := sha256.New()
	var b [8]byte
	for _, v := range losses {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	p := Losses{Sum: hex.EncodeToString(h.Sum(nil))}
	for k, u := range users {
		p.Users[k] = losses[u]
	}
	return p
}

// String writes p as the Go literal of a pin table entry, users' losses in hexadecimal.
func (p Losses) String() string {
	return fmt.Sprintf("{%q, [3]float64{%s, %s, %s}}", p.Sum, hexFloat(p.Users[0]), hexFloat(p.Users[1]), hexFloat(p.Users[2]))
}

func hexFloat(v float64) string { return strconv.FormatFloat(v, 'x', -1, 64) }

// Near reports whether the chosen users' losses of p and q agree to relTol relative to the
// larger of the two (the digests are not compared): the check of a build whose rounding
// differs from the one a pin was recorded with.
func (p Losses) Near(q Losses, relTol float64) bool {
	for k := range p.Users {
		a, b := p.Users[k], q.Users[k]
		if !(math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b))) {
			return false
		}
	}
	return true
}

// Recorded is a task's pins for the builds they were recorded with: Go for the pure-Go
// build on amd64, OpenBLAS for the openblas build with OpenBLAS's kernel set
// blasinfo.RecordedCore.
type Recorded struct {
	Go, OpenBLAS []Losses
}

// checker compares a build's losses with its recorded pins: bit for bit where the pins
// apply (Exact), else the chosen users' losses to RelTol (Near) against the pins of the
// same backend, and every digest against the one the same theta gave before in this
// process, so that the results at least repeat.
type checker struct {
	Pins   []Losses // the pins of this build's backend
	Exact  bool
	RelTol float64
	seen   map[int]Losses
}

// NewChecker picks the pins of the build (openblas: the backend's core is not "") and
// whether they apply bit for bit (exact).
func NewChecker(r Recorded, openblas, exact bool, relTol float64) *checker {
	c := &checker{Pins: r.Go, Exact: exact, RelTol: relTol, seen: map[int]Losses{}}
	if openblas {
		c.Pins = r.OpenBLAS
	}
	return c
}

// Check returns "" when got, the pin of theta number i, is as it must be, else what is
// wrong.
func (c *checker) Check(i int, got Losses) string {
	if prev, ok := c.seen[i]; ok && prev != got {
		return fmt.Sprintf("losses do not repeat in one process:\n  got  %v\n  before %v", got, prev)
	}
	c.seen[i] = got
	want := c.Pins[i]
	switch {
	case c.Exact && got != want:
		return fmt.Sprintf("losses changed:\n  got  %v\n  want %v", got, want)
	case !c.Exact && !got.Near(want, c.RelTol):
		return fmt.Sprintf("losses differ from the recorded ones by more than %g relative:\n  got  %v\n  recorded %v", c.RelTol, got, want)
	}
	return ""
}
