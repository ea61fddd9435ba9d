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
