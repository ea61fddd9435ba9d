package verdict

import (
	"fmt"

	"dpgibo/figures/claims"
	"dpgibo/internal/records"
)

// Files are the files Outputs returns.
var Files = []string{"summary.csv", "comparisons.csv", "claims.csv", "statements.csv"}

// Outputs returns, without writing them, the verdict files of res: summary.csv,
// comparisons.csv (exploratory pairwise tests, then every claim's tests), claims.csv (every
// claim of claims.Statements(), those of figures not in res as not yet run) and
// statements.csv.
func Outputs(res *Results) ([]records.File, error) {
	exploratory, err := exploratory(res)
	if err != nil {
		return nil, err
	}
	claimRows, statementRows, claimTests, err := Judge(res, claims.Statements())
	if err != nil {
		return nil, err
	}
	var files []records.File
	for _, f := range []struct {
		name string
		rows func() ([]byte, error)
	}{
		{"summary.csv", func() ([]byte, error) { return records.Marshal(summarise(res)) }},
		{"comparisons.csv", func() ([]byte, error) { return records.Marshal(append(exploratory, claimTests...)) }},
		{"claims.csv", func() ([]byte, error) { return records.Marshal(claimRows) }},
		{"statements.csv", func() ([]byte, error) { return records.Marshal(statementRows) }},
	} {
		data, err := f.rows()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		files = append(files, records.File{Name: f.name, Data: data})
	}
	return files, nil
}
