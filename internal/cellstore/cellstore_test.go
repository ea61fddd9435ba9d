package cellstore

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"dpgibo/internal/records"
)

// A written cell verifies; an edited rows or theta file, an older done record and a missing
// cell are each reported, and a NaN loss is never written.
func TestWriteVerifyAndTamper(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	rows := []records.Row{{Method: "dpgibo", Iter: 0, Loss: 0.5}, {Method: "dpgibo", Iter: 1, Loss: 0.25}}
	theta := []records.ThetaRow{{Method: "dpgibo", Coord: 0, Value: 1}}
	if err := s.Write("c1", rows, theta, true, records.Timing{TotalSeconds: 2}, "gonum"); err != nil {
		t.Fatal(err)
	}
	rec, err := s.Verify("c1", true)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Cell != "c1" || rec.Rows != 2 || rec.ThetaRows != 1 || rec.BLAS != "gonum" || rec.TotalSeconds != 2 || !s.Done("c1") {
		t.Errorf("done record %+v", rec)
	}
	for _, kind := range []string{"rows", "theta"} {
		path := s.Path("c1", kind)
		orig, _ := os.ReadFile(path)
		if err := os.WriteFile(path, []byte(strings.Replace(string(orig), "0.5", "0.4", 1)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Verify("c1", true); err == nil || !strings.Contains(err.Error(), kind) {
			t.Errorf("edited %s file: %v", kind, err)
		}
		os.WriteFile(path, orig, 0o644)
	}
	old, _ := records.Marshal([]records.CellDone{{Rows: 2}})
	os.WriteFile(s.Path("c1", "done"), old, 0o644)
	if _, err := s.Verify("c1", true); !errors.Is(err, errOldDone) {
		t.Errorf("older done record: %v", err)
	}
	if _, err := s.Verify("nope", false); !IsMissing(err) || s.Done("nope") {
		t.Errorf("missing cell: %v", err)
	}
	bad := []records.Row{{Method: "dpgibo", Loss: math.NaN()}}
	if err := s.Write("c2", bad, nil, false, records.Timing{}, "gonum"); err == nil || s.Done("c2") {
		t.Errorf("a NaN loss was written: %v", err)
	}
}
