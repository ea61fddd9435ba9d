package verdict

import (
	"fmt"
	"path/filepath"

	"dpgibo/experiments/records"
)

// Files are the files WriteDir writes.
var Files = []string{"summary.csv", "comparisons.csv", "claims.csv"}

// WriteDir reads the figure CSVs of dir and writes dir/summary.csv, dir/comparisons.csv
// (exploratory pairwise tests, then every claim's tests) and dir/claims.csv (the claims
// of Claims() whose figure is present). Each file is written atomically. It returns the
// paths written; a directory without figure CSVs writes nothing and returns none.
func WriteDir(dir string) ([]string, error) {
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
	claims, claimTests, err := Judge(res, Claims())
	if err != nil {
		return nil, err
	}
	var paths []string
	write := func(name string, data []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		path := filepath.Join(dir, name)
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
	return paths, nil
}
