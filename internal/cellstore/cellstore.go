// Package cellstore is the runner's store of finished cells: one directory holding, per
// cell stem, its rows (STEM.rows.csv), its theta path when it records one (STEM.theta.csv)
// and its done record (STEM.done.csv, records.CellDone), written last and carrying the row
// counts and SHA-256 checksums of the other files and the BLAS backend that computed them.
// A cell counts as finished only when its files match its done record; no NaN or Inf loss
// is ever written.
package cellstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"dpgibo/internal/records"
)

// Store is a directory of cells.
type Store struct{ Dir string }

// Path is the file of the given kind ("rows", "theta" or "done") of the cell stem.
func (s Store) Path(stem, kind string) string {
	return filepath.Join(s.Dir, stem+"."+kind+".csv")
}

// Done reports whether the cell's done record exists (verified or not).
func (s Store) Done(stem string) bool {
	_, err := os.Stat(s.Path(stem, "done"))
	return err == nil
}

// errOldDone marks a done record of the format before checksums.
var errOldDone = errors.New("its done record has the older format without checksums")

// IsMissing reports whether err (from Verify) says that the cell has no done record.
func IsMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// checksum is the hex SHA-256 of b.
func checksum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// finiteLosses rejects a NaN or Inf loss, naming its row.
func finiteLosses(rows []records.Row) error {
	for k, row := range rows {
		if math.IsNaN(row.Loss) || math.IsInf(row.Loss, 0) {
			return fmt.Errorf("row %d (%s at iteration %d) has loss %v", k+1, row.Method, row.Iter, row.Loss)
		}
	}
	return nil
}

// Write writes the cell's rows, its theta path when withTheta, and its done record (timing
// with its Cell set to stem, the files' checksums and blas) last, each atomically.
func (s Store) Write(stem string, rows []records.Row, theta []records.ThetaRow, withTheta bool, timing records.Timing, blas string) error {
	if err := finiteLosses(rows); err != nil {
		return err
	}
	data, err := records.Marshal(rows)
	if err != nil {
		return err
	}
	done := records.CellDone{Rows: len(rows), RowsSHA256: checksum(data), BLAS: blas}
	if err := records.WriteFileAtomic(s.Path(stem, "rows"), data); err != nil {
		return err
	}
	if withTheta {
		data, err := records.Marshal(theta)
		if err != nil {
			return err
		}
		if err := records.WriteFileAtomic(s.Path(stem, "theta"), data); err != nil {
			return err
		}
		done.ThetaRows, done.ThetaSHA256 = len(theta), checksum(data)
	}
	timing.Cell = stem
	done.Timing = timing
	record, err := records.Marshal([]records.CellDone{done})
	if err != nil {
		return err
	}
	return records.WriteFileAtomic(s.Path(stem, "done"), record)
}

// Verify reads the done record of the cell stem and checks the cell's files against it (the
// theta file too when withTheta). A missing done record is an error wrapping
// fs.ErrNotExist (IsMissing).
func (s Store) Verify(stem string, withTheta bool) (*records.CellDone, error) {
	recs, err := records.ReadFile[records.CellDone](s.Path(stem, "done"))
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
	data, err := os.ReadFile(s.Path(stem, "rows"))
	if err != nil {
		return nil, fmt.Errorf("its rows file: %w", err)
	}
	if got := checksum(data); got != rec.RowsSHA256 {
		return nil, fmt.Errorf("its rows file does not match its done record (SHA-256 %.12s..., recorded %.12s...)", got, rec.RowsSHA256)
	}
	rows, err := records.ReadFile[records.Row](s.Path(stem, "rows"))
	if err != nil {
		return nil, err
	}
	if len(rows) != rec.Rows {
		return nil, fmt.Errorf("its rows file holds %d rows, its done record %d", len(rows), rec.Rows)
	}
	if err := finiteLosses(rows); err != nil {
		return nil, err
	}
	if withTheta {
		data, err := os.ReadFile(s.Path(stem, "theta"))
		if err != nil {
			return nil, fmt.Errorf("its theta file: %w", err)
		}
		if got := checksum(data); got != rec.ThetaSHA256 {
			return nil, fmt.Errorf("its theta file does not match its done record (SHA-256 %.12s..., recorded %.12s...)", got, rec.ThetaSHA256)
		}
	}
	return rec, nil
}
