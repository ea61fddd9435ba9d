package private

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// orSecret returns rng, or, when it is nil, a new generator seeded from crypto/rand (ChaCha8
// with a 32-byte seed) for this call only, never stored or reused: the randomness of a
// private release must be secret, and a fixed, reused or published seed lets anyone who
// knows it replay the run, which voids the guarantee.
func orSecret(rng *rand.Rand) *rand.Rand {
	if rng != nil {
		return rng
	}
	var seed [32]byte
	crand.Read(seed[:]) // never returns an error; the program crashes if the system source fails
	return rand.New(rand.NewChaCha8(seed))
}
