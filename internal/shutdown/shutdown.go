// Package shutdown is how a run ends on a signal: hooks that run before a forced exit (the
// output lock's release), an exit that waits for any atomic file write in progress, the grace
// period a run has to stop, and the shell's exit status of a signal.
package shutdown

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"dpgibo/internal/records"
)

// Interruptions. The tasks' Losses take no context, so an evaluation in flight cannot be
// stopped from inside; a signal (SIGINT, SIGTERM) instead cancels the run's context, which
// stops the feed of cells and every method before its next evaluation, and the process
// exits after a short grace period whatever is still running. Every finished cell is
// already on disk (written atomically); the exit waits for an atomic write in progress, so
// no partial or temporary file is left, and releases the output directory's lock. A second
// signal exits at once. The exit status is 128 + the signal's number: 130 for SIGINT, 143
// for SIGTERM.

// SuiteGrace is how long a suite run may take to stop after a signal before the process
// exits: long enough for a cell whose last evaluation is ending to be written, short enough
// for an interactive Ctrl-C.
const SuiteGrace = 2 * time.Second

// grace is the current grace period in nanoseconds: 0 (exit at once) until a suite starts.
var grace atomic.Int64

func Grace() time.Duration     { return time.Duration(grace.Load()) }
func SetGrace(d time.Duration) { grace.Store(int64(d)) }

// exitHooks run before a forced exit (they release the output directory's lock).
var exitHooks struct {
	sync.Mutex
	next  int
	hooks map[int]func()
}

// OnExit registers f to run before a forced exit; the returned function unregisters it.
func OnExit(f func()) (unregister func()) {
	exitHooks.Lock()
	defer exitHooks.Unlock()
	if exitHooks.hooks == nil {
		exitHooks.hooks = map[int]func(){}
	}
	id := exitHooks.next
	exitHooks.next++
	exitHooks.hooks[id] = f
	return func() {
		exitHooks.Lock()
		delete(exitHooks.hooks, id)
		exitHooks.Unlock()
	}
}

// ExitNow waits for any atomic file write in progress (and blocks new ones), runs the exit
// hooks and exits with status.
func ExitNow(status int) {
	records.HoldWrites()
	exitHooks.Lock()
	for _, f := range exitHooks.hooks {
		f()
	}
	os.Exit(status)
}

// Status is the shell's exit status of a process ended by sig: 128 + its number.
func Status(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// Name is SIGINT or SIGTERM.
func Name(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
