package runner

// The engine's internals that its external tests (package runner_test, which builds the
// suites' figures) check directly, under the names they had when they were exported.
var (
	CalibratedBackend = calibratedBackend
	CellCost          = cellCost
	CellFor           = cellFor
	ConfigHash        = configHash
	ErrIncomplete     = errIncomplete
	EstimatedCost     = estimatedCost
	MakePlan          = makePlan
	PrintPlan         = printCommittedPlan
	RunCell           = runCell
)

// Manifest is the runner's manifest.
type Manifest = manifest
