package studies

import (
	"fmt"

	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// Outputs returns, without writing them, the studies' tables of res when it holds their
// figures: EquivalenceFile (the design, precision, implementation and revision studies,
// with design shares from timings) and DefaultsFile (the library study).
func Outputs(res *verdict.Results, timings []records.Timing) ([]records.File, error) {
	var files []records.File
	eq, err := Equivalence(res, designShares(timings))
	if err != nil {
		return nil, fmt.Errorf("design study: %w", err)
	}
	if len(eq) > 0 {
		data, err := records.Marshal(eq)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EquivalenceFile, err)
		}
		files = append(files, records.File{Name: EquivalenceFile, Data: data})
	}
	study, err := DefaultsStudy(res)
	if err != nil {
		return nil, fmt.Errorf("library study: %w", err)
	}
	if len(study) > 0 {
		data, err := records.Marshal(study)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", DefaultsFile, err)
		}
		files = append(files, records.File{Name: DefaultsFile, Data: data})
	}
	return files, nil
}

// EquivalenceFile is the table of the design, precision, implementation and revision
// studies, written when a results folder holds a figure PREFIX-NAME and NAME (see
// Equivalence).
const EquivalenceFile = "design-equivalence.csv"
