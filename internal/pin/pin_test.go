package pin

import (
	"math"
	"testing"
)

func TestOfChangesWithOneBit(t *testing.T) {
	losses := []float64{0.5, 0.25, 1e-3, 2}
	a := Of(losses, [3]int{0, 2, 3})
	if a.Users != [3]float64{0.5, 1e-3, 2} {
		t.Fatalf("users %v", a.Users)
	}
	losses[1] = math.Nextafter(losses[1], 1)
	if b := Of(losses, [3]int{0, 2, 3}); b.Sum == a.Sum || b.Users != a.Users {
		t.Fatalf("one bit of an unchosen user must change the digest only: %v %v", a, b)
	}
	if got, want := (Losses{Sum: "ab", Users: [3]float64{0.5, 1, -2}}).String(), `{"ab", [3]float64{0x1p-01, 0x1p+00, -0x1p+01}}`; got != want {
		t.Fatalf("String %s, want %s", got, want)
	}
}
