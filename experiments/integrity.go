package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"

	"dpgibo/internal/records"
)

// Cell integrity. Every finished cell's done record carries the row counts and SHA-256
// checksums of the cell's rows and theta files and the BLAS backend that computed them.
// -resume runs again every cell whose files fail verification (damaged, truncated, edited,
// or a done record of the older format without checksums) and says which; -merge refuses
// such a cell by name. No NaN or Inf loss is ever written to a cell or a figure CSV.

// errOldDone marks a done record of the format before checksums.
var errOldDone = errors.New("its done record has the older format without checksums")

// checksum is the hex SHA-256 of b.
func checksum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// verifyCell reads the done record of the cell stem and checks the cell's files against
// it. A missing done file is an error wrapping fs.ErrNotExist.
func (r *cellRunner) verifyCell(stem string, spec cellSpec) (*records.CellDone, error) {
	recs, err := records.ReadFile[records.CellDone](r.cellPath(stem, "done"))
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("its done record holds %d rows, want 1", len(recs))
	}
	rec := &recs[0]
	if rec.RowsSHA256 == "" {
		return nil, errOldDone
	}
	data, err := os.ReadFile(r.cellPath(stem, "rows"))
	if err != nil {
		return nil, fmt.Errorf("its rows file: %w", err)
	}
	if got := checksum(data); got != rec.RowsSHA256 {
		return nil, fmt.Errorf("its rows file does not match its done record (SHA-256 %.12s..., recorded %.12s...)", got, rec.RowsSHA256)
	}
	rows, err := records.ReadFile[records.Row](r.cellPath(stem, "rows"))
	if err != nil {
		return nil, err
	}
	if len(rows) != rec.Rows {
		return nil, fmt.Errorf("its rows file holds %d rows, its done record %d", len(rows), rec.Rows)
	}
	if err := finiteLosses(rows); err != nil {
		return nil, err
	}
	if len(spec.ThetaCoords) > 0 {
		data, err := os.ReadFile(r.cellPath(stem, "theta"))
		if err != nil {
			return nil, fmt.Errorf("its theta file: %w", err)
		}
		if got := checksum(data); got != rec.ThetaSHA256 {
			return nil, fmt.Errorf("its theta file does not match its done record (SHA-256 %.12s..., recorded %.12s...)", got, rec.ThetaSHA256)
		}
	}
	return rec, nil
}

// finiteLosses rejects a NaN or Inf loss.
func finiteLosses(rows []records.Row) error {
	for k, row := range rows {
		if math.IsNaN(row.Loss) || math.IsInf(row.Loss, 0) {
			return fmt.Errorf("row %d (%s at iteration %d) has loss %v", k+1, row.Method, row.Iter, row.Loss)
		}
	}
	return nil
}

// isMissing reports whether err says that the cell has no done file.
func isMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
