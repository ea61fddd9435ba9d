// Package runlock is the lock a run holds on its output directory while it writes there.
package runlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"dpgibo/internal/shutdown"
)

// Output locks. A run (or a merge) holds a lock file in its output directory for as long
// as it writes there: OUT/experiments.lock, or OUT/experiments-shard-K-of-N.lock for a
// shard. The file is created exclusively (a hard link from a complete temporary file:
// link(2) fails when the name exists, as O_EXCL does, and the content appears whole) and
// names the host, the PID, the configuration hash and the shard. A second run into the same
// directory refuses at once, naming the holder, except that shards of one run (the same
// configuration hash) run side by side, as a SLURM array or a Kubernetes indexed Job does.
// A lock whose process has died on this host (SIGKILL, a crash) is stale: it is removed with
// a note, so that -resume after a kill just works. A lock from another host cannot be
// checked; a shard of the same run taking over its own shard's lock from another host (a
// rerun of a failed task or pod) proceeds with a note, anything else refuses and says which
// file to delete if that run is gone.

// Info is the content of a lock file.
type Info struct {
	Host       string `json:"host"`
	PID        int    `json:"pid"`
	Suite      string `json:"suite"`
	Only       string `json:"only,omitempty"`
	Shard      string `json:"shard,omitempty"`
	ConfigHash string `json:"config_hash"`
	Start      string `json:"start"`
}

func (l Info) String() string {
	what := "-suite=" + l.Suite
	if l.Only != "" {
		what += " -only=" + l.Only
	}
	if l.Shard != "" {
		what += " -shard=" + l.Shard
	}
	return fmt.Sprintf("PID %d on host %s (%s, started %s)", l.PID, l.Host, what, l.Start)
}

// FileName is the lock's file name for a shard ("" for a whole run or a merge).
func FileName(shard string) string {
	if shard == "" {
		return "experiments.lock"
	}
	return "experiments-shard-" + strings.Replace(shard, "/", "-of-", 1) + ".lock"
}

// processAlive reports whether pid is a running process on this host.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Host is os.Hostname, or "unknown".
func Host() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}

// Read reads a lock file.
func Read(path string) (Info, error) {
	var l Info
	b, err := os.ReadFile(path)
	if err != nil {
		return l, err
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return l, fmt.Errorf("lock file %s is not readable: %w", path, err)
	}
	return l, nil
}

// Acquire takes the output lock of dir for me (Host, PID and Start are filled in).
// Notes about stale locks go to notes. The returned function releases the lock; it is also
// registered to run on a forced exit.
func Acquire(dir string, me Info, notes io.Writer) (release func(), err error) {
	me.Host, me.PID, me.Start = Host(), os.Getpid(), time.Now().UTC().Format(time.RFC3339)
	b, err := json.MarshalIndent(me, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, FileName(me.Shard))
	tmp, err := os.CreateTemp(dir, ".experiments.lock.tmp-*")
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	defer os.Remove(tmp.Name())
	if werr != nil || cerr != nil {
		return nil, fmt.Errorf("writing the lock in %s: %w", dir, errors.Join(werr, cerr))
	}
	note := func(format string, args ...any) {
		if notes != nil {
			fmt.Fprintf(notes, format+"\n", args...)
		}
	}
take:
	for attempt := 0; ; attempt++ {
		err := os.Link(tmp.Name(), path)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt > 2 {
			return nil, fmt.Errorf("taking the lock %s: %w", path, err)
		}
		holder, rerr := Read(path)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			continue // released meanwhile
		case rerr != nil:
			return nil, fmt.Errorf("output directory %s is locked: %w; delete it if no run uses the directory", dir, rerr)
		case holder.Host == me.Host && !processAlive(holder.PID):
			note("removing the stale lock %s of %v: that process is no longer running", path, holder)
			os.Remove(path)
		case holder.Host != me.Host && me.Shard != "" && holder.ConfigHash == me.ConfigHash:
			note("taking over the lock %s of %v: the same shard of the same run, rerun from host %s", path, holder, me.Host)
			if err := os.Rename(tmp.Name(), path); err != nil {
				return nil, fmt.Errorf("taking the lock %s: %w", path, err)
			}
			break take
		default:
			return nil, lockedError(dir, path, holder)
		}
	}
	release = holdLock(path, me)
	if err := checkOtherLocks(dir, path, me, note); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// checkOtherLocks refuses when another lock in dir belongs to a live (or unverifiable)
// run that is not a sibling shard of the same configuration; stale ones are removed.
func checkOtherLocks(dir, own string, me Info, note func(string, ...any)) error {
	paths, err := filepath.Glob(filepath.Join(dir, "experiments*.lock"))
	if err != nil {
		return err
	}
	for _, path := range paths {
		if path == own {
			continue
		}
		holder, err := Read(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("output directory %s is locked: %w; delete it if no run uses the directory", dir, err)
		}
		if holder.Host == me.Host && !processAlive(holder.PID) {
			note("removing the stale lock %s of %v: that process is no longer running", path, holder)
			os.Remove(path)
			continue
		}
		if me.Shard != "" && holder.Shard != "" && holder.ConfigHash == me.ConfigHash {
			continue // a sibling shard of the same run
		}
		return lockedError(dir, path, holder)
	}
	return nil
}

func lockedError(dir, path string, holder Info) error {
	return fmt.Errorf("output directory %s is in use by %v (lock %s); wait for that run, choose another -out, or delete the lock if that process is gone", dir, holder, path)
}

// holdLock returns the release of the lock at path, registered for forced exits too. The
// release removes the file only while it still names this process.
func holdLock(path string, me Info) func() {
	var unregister func()
	release := func() {
		if l, err := Read(path); err == nil && l.Host == me.Host && l.PID == me.PID && l.Start == me.Start {
			os.Remove(path)
		}
	}
	unregister = shutdown.OnExit(release)
	return func() {
		unregister()
		release()
	}
}
