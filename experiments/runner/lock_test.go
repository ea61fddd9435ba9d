package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/internal/runlock"
)

// writeLock plants a lock file of another run in dir.
func writeLock(t *testing.T, dir string, l runlock.Info) {
	t.Helper()
	b, _ := json.Marshal(l)
	if err := os.WriteFile(filepath.Join(dir, runlock.FileName(l.Shard)), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// liveProcess starts a process that outlives the test's checks and returns its PID.
func liveProcess(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start sleep:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.ProcessState.Pid()
}

func fig1Hash(t *testing.T) string {
	t.Helper()
	figs, _ := suites.Figures(suites.Quick, "fig1")
	p, err := runner.MakePlan(suites.Quick, figs, "")
	if err != nil {
		t.Fatal(err)
	}
	return runner.ConfigHash(suites.Quick, p)
}

func TestOutputLock(t *testing.T) {
	host := runlock.Host()
	live := liveProcess(t)
	hash := fig1Hash(t)
	for _, tc := range []struct {
		name   string
		holder runlock.Info
		shard  runner.Shard
		ok     bool
		note   string
	}{
		{"live run, other settings", runlock.Info{Host: host, PID: live, Suite: "paper", ConfigHash: "other"}, runner.Shard{}, false, ""},
		{"live run, same settings", runlock.Info{Host: host, PID: live, Suite: "quick", ConfigHash: hash}, runner.Shard{}, false, ""},
		{"live run on another host", runlock.Info{Host: host + "-elsewhere", PID: 1, Suite: "quick", ConfigHash: "other"}, runner.Shard{}, false, ""},
		{"stale lock of a killed run", runlock.Info{Host: host, PID: deadPID(t), Suite: "quick", ConfigHash: "other"}, runner.Shard{}, true, "stale lock"},
		{"sibling shard of the same run", runlock.Info{Host: host, PID: live, Suite: "quick", Shard: "0/2", ConfigHash: hash}, runner.Shard{K: 1, N: 2}, true, ""},
		{"shard of another run", runlock.Info{Host: host, PID: live, Suite: "quick", Shard: "0/2", ConfigHash: "other"}, runner.Shard{K: 1, N: 2}, false, ""},
		{"a whole run beside a running shard", runlock.Info{Host: host, PID: live, Suite: "quick", Shard: "0/2", ConfigHash: hash}, runner.Shard{}, false, ""},
		{"the same shard rerun from another host", runlock.Info{Host: host + "-elsewhere", PID: 1, Suite: "quick", Shard: "1/2", ConfigHash: hash}, runner.Shard{K: 1, N: 2}, true, "taking over"},
	} {
		dir := t.TempDir()
		writeLock(t, dir, tc.holder)
		var notes bytes.Buffer
		o := quickOptions(dir, 1)
		o.Only, o.Shard, o.Stderr = "fig1", tc.shard, &notes
		ran := 0
		o.AfterCell = func() { ran++ }
		err := runSuite(context.Background(), o)
		if tc.ok {
			if err != nil || !strings.Contains(notes.String(), tc.note) {
				t.Errorf("%s: got %v, notes %q; want the run to proceed (note %q)", tc.name, err, notes.String(), tc.note)
			}
			if _, err := os.Stat(filepath.Join(dir, runlock.FileName(tc.shard.String()))); err == nil {
				t.Errorf("%s: the run left its lock behind", tc.name)
			}
			continue
		}
		want := "PID " + strconv.Itoa(tc.holder.PID) + " on host " + tc.holder.Host
		if err == nil || !strings.Contains(err.Error(), want) || ran > 0 {
			t.Errorf("%s: got %v after %d cells; want a refusal naming %q before any cell", tc.name, err, ran, want)
		}
		// The holder's lock is left as it was.
		if l, err := runlock.Read(filepath.Join(dir, runlock.FileName(tc.holder.Shard))); err != nil || l.PID != tc.holder.PID {
			t.Errorf("%s: the holder's lock was changed: %+v, %v", tc.name, l, err)
		}
	}
}
