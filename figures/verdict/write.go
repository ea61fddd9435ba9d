package verdict

import (
	"fmt"
	"os"
	"path/filepath"

	"dpgibo/internal/records"
)

// Files are the files WriteDir writes.
var Files = []string{"summary.csv", "comparisons.csv", "claims.csv", "statements.csv"}

// EquivalenceFile is the design study's verdict, written beside Files when dir holds a
// figure design-NAME and NAME (see Equivalence).
const EquivalenceFile = "design-equivalence.csv"

// WriteDir reads the figure CSVs of dir and writes the verdict files into dir: see WriteTo.
func WriteDir(dir string) ([]string, error) { return WriteTo(dir, dir) }

// WriteTo reads the figure CSVs of dir and writes into out summary.csv, comparisons.csv
// (exploratory pairwise tests, then every claim's tests), claims.csv (every claim of
// Statements(), those of figures not in dir as not yet run) and statements.csv, and the
// design study's and the library study's verdicts when dir holds their figures. Each file is
// written atomically. It returns the paths written; a directory without figure CSVs writes
// nothing and returns none.
func WriteTo(dir, out string) ([]string, error) {
	res, err := ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(res.Figures) == 0 {
		return nil, nil
	}
	exploratory, err := Exploratory(res)
	if err != nil {
		return nil, err
	}
	claims, statements, claimTests, err := Judge(res, Statements())
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	write := func(name string, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		path := filepath.Join(out, name)
		if err := records.WriteFileAtomic(path, data); err != nil {
			return err
		}
		paths = append(paths, path)
		return nil
	}
	summary, err := records.Marshal(Summarise(res))
	if err := write("summary.csv", summary, err); err != nil {
		return nil, err
	}
	comparisons, err := records.Marshal(append(exploratory, claimTests...))
	if err := write("comparisons.csv", comparisons, err); err != nil {
		return nil, err
	}
	claimRows, err := records.Marshal(claims)
	if err := write("claims.csv", claimRows, err); err != nil {
		return nil, err
	}
	statementRows, err := records.Marshal(statements)
	if err := write("statements.csv", statementRows, err); err != nil {
		return nil, err
	}
	timings, err := readTimings(dir)
	if err != nil {
		return nil, err
	}
	eq, err := Equivalence(res, designShares(timings))
	if err != nil {
		return nil, fmt.Errorf("design study: %w", err)
	}
	if len(eq) > 0 {
		eqRows, err := records.Marshal(eq)
		if err := write(EquivalenceFile, eqRows, err); err != nil {
			return nil, err
		}
	}
	study, err := DefaultsStudy(res)
	if err != nil {
		return nil, fmt.Errorf("library study: %w", err)
	}
	if len(study) > 0 {
		rows, err := records.Marshal(study)
		if err := write(DefaultsFile, rows, err); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
