package verdict

import (
	"fmt"
	"os"

	"dpgibo/internal/records"
)

// Files are the files WriteDir writes.
var Files = []string{"summary.csv", "comparisons.csv", "claims.csv", "statements.csv"}

// EquivalenceFile is the design study's verdict, written beside Files when dir holds a
// figure design-NAME and NAME (see Equivalence).
const EquivalenceFile = "design-equivalence.csv"

// WriteDir reads the figure CSVs of dir and writes the verdict files into dir: see WriteTo.
func WriteDir(dir string) ([]string, error) { return WriteTo(dir, dir) }

// WriteTo reads the figure CSVs of dir and writes Outputs(dir) into out (created if
// needed), each file atomically, only after every one has been computed. It returns the
// paths written; a directory without figure CSVs writes nothing and returns none.
func WriteTo(dir, out string) ([]string, error) {
	files, err := Outputs(dir)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return records.WriteFiles(out, files)
}

// Outputs reads the figure CSVs of dir and returns, without writing them, summary.csv,
// comparisons.csv (exploratory pairwise tests, then every claim's tests), claims.csv (every
// claim of Statements(), those of figures not in dir as not yet run) and statements.csv,
// and the design study's and the library study's verdicts when dir holds their figures.
// A directory without figure CSVs gives none.
func Outputs(dir string) ([]records.File, error) {
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
	var files []records.File
	add := func(name string, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		files = append(files, records.File{Name: name, Data: data})
		return nil
	}
	summary, err := records.Marshal(Summarise(res))
	if err := add("summary.csv", summary, err); err != nil {
		return nil, err
	}
	comparisons, err := records.Marshal(append(exploratory, claimTests...))
	if err := add("comparisons.csv", comparisons, err); err != nil {
		return nil, err
	}
	claimRows, err := records.Marshal(claims)
	if err := add("claims.csv", claimRows, err); err != nil {
		return nil, err
	}
	statementRows, err := records.Marshal(statements)
	if err := add("statements.csv", statementRows, err); err != nil {
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
		if err := add(EquivalenceFile, eqRows, err); err != nil {
			return nil, err
		}
	}
	study, err := DefaultsStudy(res)
	if err != nil {
		return nil, fmt.Errorf("library study: %w", err)
	}
	if len(study) > 0 {
		rows, err := records.Marshal(study)
		if err := add(DefaultsFile, rows, err); err != nil {
			return nil, err
		}
	}
	return files, nil
}
