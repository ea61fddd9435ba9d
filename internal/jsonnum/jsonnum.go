// Package jsonnum is a float64 for JSON files that must hold +Inf (the mu of a non-private
// run): non-finite values are written as the strings "+Inf", "-Inf" and "NaN", finite ones
// as the shortest 'g' decimal that reads back to the same float64.
package jsonnum

import (
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 with that JSON encoding.
type Float float64

// MarshalJSON writes finite values as JSON numbers and the rest as strings.
func (x Float) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte(strconv.Quote(strconv.FormatFloat(f, 'g', -1, 64))), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads a JSON number, or a string holding a number, "+Inf", "-Inf" or "NaN".
func (x *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	if uq, err := strconv.Unquote(s); err == nil {
		s = uq
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number: %s", b)
	}
	*x = Float(f)
	return nil
}
