package records

// CellDone is the done record of one cell of the runner (cells/STEM.done.csv): the cell's
// Timing, what verifies its rows and theta files (row counts and SHA-256 checksums of the
// files' bytes) and the BLAS backend that computed it (blasinfo.Backend). It is written
// after the cell's other files, so its presence marks the cell finished, and a resume or
// merge trusts the cell's files only when they match it. A done record of the older format
// (a Timing alone) reads with RowsSHA256 empty.
type CellDone struct {
	Timing
	// Rows is the number of rows of the cell's rows file; RowsSHA256 the hex SHA-256 of
	// its bytes.
	Rows       int    `csv:"rows"`
	RowsSHA256 string `csv:"rows_sha256"`
	// ThetaRows and ThetaSHA256 verify the theta file (0 and "" when the cell records no
	// theta path).
	ThetaRows   int    `csv:"theta_rows"`
	ThetaSHA256 string `csv:"theta_sha256"`
	// BLAS is the backend that computed the cell, e.g. "gonum" or
	// "openblas 0.3.21 core=Haswell".
	BLAS string `csv:"blas"`
}
