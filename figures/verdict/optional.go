package verdict

import (
	"math"
	"strconv"
)

// optional is a float64 that may be absent; it is written as an empty CSV cell when absent
// and otherwise as the shortest decimal that reads back to the same float64 ("+Inf" for
// infinity), like every float of package records.
type optional struct {
	Value float64
	Set   bool
}

func some(v float64) optional { return optional{Value: v, Set: true} }

// MarshalCSV implements gocsv's TypeMarshaller.
func (o optional) MarshalCSV() (string, error) {
	if !o.Set {
		return "", nil
	}
	return formatFloat(o.Value), nil
}

// UnmarshalCSV implements gocsv's TypeUnmarshaller.
func (o *optional) UnmarshalCSV(s string) error {
	if s == "" {
		*o = optional{}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*o = some(v)
	return nil
}

// formatFloat writes v as the shortest decimal that reads back to v, "+Inf" for infinity.
func formatFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
