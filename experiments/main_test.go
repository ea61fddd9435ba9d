package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"dpgibo/internal/blasinfo"
	"dpgibo/internal/records"
)

func TestMain(m *testing.M) {
	blasinfo.PrepareTests()
	binDir, err := os.MkdirTemp("", "dpgibo-experiments-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := buildBinary(binDir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(binDir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

func TestCommandLineErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"-bogus"}, "flag provided but not defined: -bogus", true},
		{[]string{}, "give -suite=", true},
		{[]string{"-suite=nope"}, `unknown suite "nope"`, true},
		{[]string{"-suite=paper", "-only=fig9"}, `unknown figure "fig9" for -suite=paper (known: fig1,`, true},
		{[]string{"-suite=paper", "-shard=3/3"}, "-shard must be K/N", true},
		{[]string{"-suite=paper", "-shard=a/b"}, "-shard must be K/N", true},
		{[]string{"-suite=paper", "-workers=0"}, "-workers must be >= 1", true},
		{[]string{"-suite=paper", "-seeds=-1"}, "-seeds must be >= 0", true},
		{[]string{"-suite=paper", "-merge", "-resume"}, "-merge runs nothing", true},
		{[]string{"-suite=paper", "extra"}, `unexpected argument "extra"`, true},
		{[]string{"-suite=audit", "-only=fig1"}, "-only is not used by -suite=audit", true},
		{[]string{"-suite=audit", "-plan"}, "-plan estimates the figure suites", true},
		{[]string{"-suite=paper", "-resume", "-overwrite"}, "give one", true},
		{[]string{"-suite=paper", "-from=" + t.TempDir(), "-merge"}, "-from takes committed cells", true},
		{[]string{"-suite=paper", "-from=" + file}, "not a folder of committed results", true},
		// Without -suite, every other mistake still has its own message.
		{[]string{"-only=fig99", "-plan"}, "-only=fig99: no suite has that figure", true},
		{[]string{"-only=fig1", "-plan"}, "give -suite=", true},
		{[]string{"-seeds=-3"}, "-seeds must be >= 0", true},
		{[]string{"-workers=-1"}, "-workers must be >= 1", true},
		{[]string{"-out=" + file}, "is a file, not a directory", true},
		{[]string{"-suite=quick", "-out=" + file}, "is a file, not a directory", true},
		{[]string{"-suite=paper", "-plan", "-shard=0/2"}, "cannot be combined with -shard", true},
		{[]string{"-task=grouplasso"}, "-task needs -dump-data", true},
		{[]string{"-task=grouplasso", "-suite=paper", "-eval-theta=1"}, "-suite cannot be combined with -task", true},
		{[]string{"-suite=quick", "-seed=3"}, "-seed is only used with -task", true},
		{[]string{"-suite=quick", "-only=fig1", "-out=" + filepath.Join(file, "sub")}, "is a file, not a directory", true},
		{[]string{"-suite=quick", "-only=fig2b", "-out=" + t.TempDir(), "-ctslice=" + filepath.Join(file, "absent.csv")}, "CT-slice", false},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tc.args, io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got error %v, want one containing %q", tc.args, err, tc.want)
			continue
		}
		var ue usageError
		if errors.As(err, &ue) != tc.usage {
			t.Errorf("%v: usage error = %v, want %v", tc.args, !tc.usage, tc.usage)
		}
	}
}

// Two processes into one folder: the second refuses at once naming the first; after the
// first is killed (SIGKILL leaves its lock behind) the next run proceeds.
func TestSecondRunRefusedAndKilledRunsLockIsStale(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command")
	}
	out := t.TempDir()
	first, _, firstErr := command(t, "-suite=paper", "-only=fig2b", "-workers=1", "-quiet", "-out="+out)
	holding(first, firstErr, 0) // it holds its first evaluation: it runs until killed
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { first.Process.Kill(); first.Wait() }()
	lock := filepath.Join(out, "experiments.lock")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(lock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first run took no lock within 30 s")
		}
	}
	second, _, stderr := command(t, "-suite=quick", "-only=fig1", "-quiet", "-out="+out)
	status := exitStatus(t, second.Run())
	want := "PID " + strconv.Itoa(first.Process.Pid)
	if status != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("second run: exit status %d, stderr %q; want 1, naming %s", status, stderr.String(), want)
	}
	// In order: the second run gave up while the first still held the folder.
	if err := first.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the first run ended before the second was refused (%v): the test needs it running", err)
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	if _, err := os.Stat(lock); err != nil {
		t.Fatalf("SIGKILL removed the lock (%v); the test needs it left behind", err)
	}
	third, _, stderr := command(t, "-suite=quick", "-only=fig1", "-out="+out, "-progress-every=1h")
	if status := exitStatus(t, third.Run()); status != 0 || !strings.Contains(stderr.String(), "stale lock") {
		t.Errorf("run after the kill: exit status %d, stderr %q; want 0 and a note on the stale lock", status, stderr.String())
	}
	if _, err := os.Stat(lock); err == nil {
		t.Error("the run left its lock behind")
	}
}

// TestFStarSuiteSearchesAFigure runs -suite=fstar on the cheapest figure whose setting has no
// committed f*, through the command as a user calls it: the search writes its table.
func TestFStarSuiteSearchesAFigure(t *testing.T) {
	out := t.TempDir()
	var stderr strings.Builder
	if err := run(context.Background(), []string{"-suite=fstar", "-only=library-private-toy", "-out", out, "-quiet"}, io.Discard, &stderr); err != nil {
		t.Fatalf("-suite=fstar: %v\n%s", err, stderr.String())
	}
	table, err := os.ReadFile(filepath.Join(out, "fstar_table.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(table), `Setting{Task: "toy"`) {
		t.Errorf("fstar_table.go holds no entry for the toy figure's setting")
	}
	// A list of figures searches each one's setting; a name of no figure is refused.
	if err := run(context.Background(), []string{"-suite=fstar", "-only=library-private-toy,low-snr-toy20", "-out", out, "-quiet"}, io.Discard, &stderr); err != nil {
		t.Fatalf("-suite=fstar with two figures: %v\n%s", err, stderr.String())
	}
	found, err := records.ReadFile[records.FStar](filepath.Join(out, "fstar-search.csv"))
	if err != nil || len(found) != 2 || found[0].NUsers == found[1].NUsers {
		t.Errorf("two figures' search found %+v (%v), want the two toy settings", found, err)
	}
	if err := run(context.Background(), []string{"-suite=fstar", "-only=library-private-toy,no-such-figure", "-out", out, "-quiet"}, io.Discard, &stderr); err == nil ||
		!strings.Contains(err.Error(), `"no-such-figure"`) {
		t.Errorf("a list naming no figure: %v", err)
	}
}
