package jsonnum

import (
	"encoding/json"
	"math"
	"testing"
)

func TestRoundTripAndSpelling(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{math.Inf(1), `"+Inf"`}, {math.Inf(-1), `"-Inf"`}, {0.1, `0.1`}, {1e-5, `1e-05`}, {4.3772, `4.3772`}, {1e21, `1e+21`}} {
		b, err := json.Marshal(Float(c.v))
		if err != nil || string(b) != c.want {
			t.Errorf("%g: %s %v, want %s", c.v, b, err, c.want)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil || float64(back) != c.v {
			t.Errorf("%s read back as %g (%v)", b, float64(back), err)
		}
	}
	var f Float
	if err := json.Unmarshal([]byte(`0.00001`), &f); err != nil || f != 1e-5 {
		t.Errorf("a plain JSON number: %g %v", float64(f), err)
	}
	if err := json.Unmarshal([]byte(`"many"`), &f); err == nil {
		t.Error(`"many" was read as a number`)
	}
	var nan Float
	if err := json.Unmarshal([]byte(`"NaN"`), &nan); err != nil || !math.IsNaN(float64(nan)) {
		t.Errorf("NaN: %g %v", float64(nan), err)
	}
}
