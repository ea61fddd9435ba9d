package tasks

import "fmt"

// MaxTaskBytes bounds the memory a task may allocate for its data and solver buffers
// (1 GiB). Tasks check their size against it before allocating anything, so that a d far
// beyond what a machine holds is an error naming d, not an out-of-memory crash.
const MaxTaskBytes = 1 << 30

// LimitError reports a dimension d outside what a task supports, with the largest d it
// supports and why. It is the user's d (the -d flag), not a field of a task's Config.
type LimitError struct {
	Task   string // the task's registry name
	D      int    // the d asked for
	MaxD   int    // the largest d the task supports with its other settings
	Reason string // why, in one clause
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: d = %d is above the largest supported d = %d (%s)", e.Task, e.D, e.MaxD, e.Reason)
}
