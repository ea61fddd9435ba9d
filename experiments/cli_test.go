package main

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dpgibo/internal/runinfo"
)

// cliBinary is the experiments command built once by TestMain, for the tests that drive the
// command line as a user does (exit statuses, signals, messages on stderr).
var cliBinary string

// buildBinary builds the command into dir, with the test hooks of internal/testhook (and
// otherwise the default build: pure Go).
func buildBinary(dir string) error {
	// go test puts its own GOROOT/bin first on the PATH of the test process.
	gocmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("finding the go command: %w", err)
	}
	cliBinary = filepath.Join(dir, "experiments")
	out, err := exec.Command(gocmd, "build", "-tags", "testhooks", "-o", cliBinary, ".").CombinedOutput()
	if err != nil {
		return fmt.Errorf("building the experiments command: %v\n%s", err, out)
	}
	return nil
}

// command prepares the built binary with args, its stdout and stderr captured.
func command(t *testing.T, args ...string) (*exec.Cmd, *outputBuffer, *outputBuffer) {
	t.Helper()
	cmd := exec.Command(cliBinary, args...)
	cmd.Dir = t.TempDir()
	stdout, stderr := new(outputBuffer), new(outputBuffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd, stdout, stderr
}

// outputBuffer collects a command's output while it runs; Await tells when a text has
// appeared in it.
type outputBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	waiting map[string]chan struct{}
}

func (b *outputBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	for text, ch := range b.waiting {
		if strings.Contains(b.buf.String(), text) {
			close(ch)
			delete(b.waiting, text)
		}
	}
	return n, err
}

func (b *outputBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *outputBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// Await returns a channel closed once text has appeared in the output.
func (b *outputBuffer) Await(text string) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan struct{})
	if strings.Contains(b.buf.String(), text) {
		close(ch)
		return ch
	}
	if b.waiting == nil {
		b.waiting = map[string]chan struct{}{}
	}
	b.waiting[text] = ch
	return ch
}

// holding runs cmd with the test hook that holds every task evaluation after the first
// after ones (internal/testhook); ready is closed when the command holds.
func holding(cmd *exec.Cmd, stderr *outputBuffer, after int) (ready <-chan struct{}) {
	cmd.Env = append(os.Environ(), "DPGIBO_TESTHOOK_HOLD="+strconv.Itoa(after))
	return stderr.Await("testhook: holding")
}

// exitStatus is the command's exit status (-1 when it was killed by a signal it did not
// handle).
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("running the command: %v", err)
	}
	return ee.ExitCode()
}

func zeros(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }

func TestCommandLineExitStatusAndMessages(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"-bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"-suite=nope"}, 2, `unknown suite "nope"`},
		{[]string{"-task=nope", "-eval-theta=1"}, 2, `unknown -task "nope"`},
		{[]string{"-task=grouplasso", "-d=2", "-eval-theta=1,abc"}, 2, "is not a number"},
		{[]string{"-task=grouplasso", "-d=2", "-eval-theta=1"}, 2, "got 1 theta values"},
		{[]string{"-task=grouplasso", "-d=2", "-eval-theta=1,99"}, 2, "outside"},
		{[]string{"-task=grouplasso", "-d=100000", "-eval-theta=1"}, 2, "-d=100000: grouplasso: d = 100000 is above the largest supported d"},
		{[]string{"-task=gpreg", "-d=5000", "-eval-theta=1"}, 2, "-d=5000: gpreg: d = 5000 is above the largest supported d"},
		{[]string{"-task=svr", "-d=2", "-eval-theta=1,1"}, 2, "-d=2: svr needs d >= 4"},
	} {
		cmd, _, stderr := command(t, tc.args...)
		status := exitStatus(t, cmd.Run())
		msg := stderr.String()
		if status != tc.status || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: exit status %d, stderr %q; want %d and %q", tc.args, status, msg, tc.status, tc.want)
			continue
		}
		// One message, once: no usage listing, no repetition.
		if strings.Count(msg, tc.want) != 1 || strings.Contains(msg, "-progress-every") {
			t.Errorf("%v: stderr repeats the message or lists the usage:\n%s", tc.args, msg)
		}
	}
	cmd, _, stderr := command(t, "-h")
	if status := exitStatus(t, cmd.Run()); status != 0 || !strings.Contains(stderr.String(), "-progress-every") {
		t.Errorf("-h: exit status %d, stderr %q; want 0 and the usage", status, stderr.String())
	}
}

// -version prints the built binary's own description: the commit and build tags go build
// stamped into it (read back from the file with debug/buildinfo), on stdout, exit status 0,
// and nothing written where it ran.
func TestVersionDescribesTheBuiltBinary(t *testing.T) {
	info, err := buildinfo.ReadFile(cliBinary)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"module: dpgibo ", "\nbuild tags: testhooks\n"}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			want = append(want, "\ncommit: "+s.Value)
		}
	}
	if len(want) == 2 {
		want = append(want, "\ncommit: unknown (")
	}
	cmd, stdout, stderr := command(t, "-version")
	if status := exitStatus(t, cmd.Run()); status != 0 || stderr.Len() != 0 {
		t.Fatalf("-version: exit status %d, stderr %q; want 0 and nothing", status, stderr.String())
	}
	for _, w := range want {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("-version lacks %q:\n%s", w, stdout.String())
		}
	}
	if left, _ := os.ReadDir(cmd.Dir); len(left) != 0 {
		t.Errorf("-version wrote into its working directory: %v", left)
	}
}

// startAndSignal starts cmd, waits until ready is closed, sends each signal in sigs (spaced
// by gap; a signal after the process has exited is skipped) and returns the exit status and
// the time from the first signal to the exit.
func startAndSignal(t *testing.T, cmd *exec.Cmd, ready <-chan struct{}, gap time.Duration, sigs ...os.Signal) (int, time.Duration) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the command ended before the signal: %v", err)
	case <-ready:
	}
	start := time.Now()
	for i, sig := range sigs {
		if i > 0 {
			time.Sleep(gap)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			if i > 0 && errors.Is(err, os.ErrProcessDone) {
				break // it stopped on the earlier signal already: what a later one asks for
			}
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		return exitStatus(t, err), time.Since(start)
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running 60 s after %v", sigs)
	}
	return 0, 0
}

// A task evaluation cannot be interrupted from inside (Losses takes no context); the
// process exits on a signal anyway, with the signal's exit status. The test hook holds the
// evaluation for ever, so the signal always arrives during it, however fast the machine.
func TestSignalStopsTaskInspection(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command for a few seconds")
	}
	for _, tc := range []struct {
		sig    syscall.Signal
		status int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		cmd, stdout, stderr := command(t, "-task=svr", "-d=387", "-eval-theta="+zeros(387))
		status, took := startAndSignal(t, cmd, holding(cmd, stderr, 0), 0, tc.sig)
		if status != tc.status {
			t.Errorf("%v: exit status %d after %v (stderr %q); want %d", tc.sig, status, took, stderr.String(), tc.status)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: an interrupted evaluation printed %d bytes of losses", tc.sig, stdout.Len())
		}
		t.Logf("%v: exit %d after %v", tc.sig, status, took.Round(time.Millisecond))
	}
}

// A suite stops on one signal (after its grace period) or two (at once) before it finishes,
// with the signal's exit status, and leaves the output directory resumable (no temporary
// file, no lock).
func TestSignalStopsSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command for a few seconds")
	}
	for _, tc := range []struct {
		sigs   []os.Signal
		status int
	}{
		{[]os.Signal{syscall.SIGINT}, 130},
		{[]os.Signal{syscall.SIGTERM, syscall.SIGTERM}, 143},
	} {
		out := t.TempDir()
		cmd, _, stderr := command(t, "-suite=quick", "-only=fig2b", "-workers=1", "-quiet", "-out="+out)
		status, took := startAndSignal(t, cmd, holding(cmd, stderr, 50), 100*time.Millisecond, tc.sigs...)
		if status != tc.status {
			t.Errorf("%v: exit status %d after %v (stderr %q); want %d", tc.sigs, status, took, stderr.String(), tc.status)
		}
		// In order: the suite stopped before it finished (it never wrote its manifest).
		if _, err := os.Stat(filepath.Join(out, "manifest-fig2b.json")); err == nil {
			t.Errorf("%v: the suite ran to its end instead of stopping on the signal", tc.sigs)
		}
		// It says, in plain words, the whole command that continues the run, and leaves a
		// record of the unfinished figure with that command for the figures command.
		if msg := stderr.String(); !strings.Contains(msg, "to continue: ") || !strings.Contains(msg, "-only=fig2b") ||
			!strings.Contains(msg, " -resume\n") || strings.Contains(msg, "context canceled") {
			t.Errorf("%v: stderr %q; want the whole command that resumes, and no \"context canceled\"", tc.sigs, msg)
		}
		if u := runinfo.ReadUnfinished(out); len(u) != 1 || !slices.Equal(u[0].Figures, []string{"fig2b"}) || !strings.HasSuffix(u[0].Resume, "-only=fig2b -workers=1 -quiet -out="+out+" -resume") {
			t.Errorf("%v: unfinished records %+v; want fig2b's with the command that resumes it", tc.sigs, u)
		}
		t.Logf("%v: exit %d after %v", tc.sigs, status, took.Round(time.Millisecond))
		left, _ := filepath.Glob(filepath.Join(out, "*", ".*tmp*"))
		top, _ := filepath.Glob(filepath.Join(out, ".*tmp*"))
		if len(left)+len(top) > 0 {
			t.Errorf("%v: temporary files left: %v %v", tc.sigs, left, top)
		}
	}
}

// A run says at its start what it will run, where it writes and on which BLAS, and at its
// end where its results are; a resume says what it found.
func TestRunSaysWhatAndWhere(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command")
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd, _, stderr := command(t, "-suite=quick", "-only=fig1", "-workers=1", "-out="+out)
	if status := exitStatus(t, cmd.Run()); status != 0 {
		t.Fatalf("exit status %d: %s", status, stderr.String())
	}
	start := regexp.MustCompile(`(?m)^experiments: suite quick -only=fig1: (\d+) cells to run; writing to ` + regexp.QuoteMeta(out) + ` \(BLAS [^)]+, exponentials \w+\)$`).FindStringSubmatch(stderr.String())
	if start == nil {
		t.Fatalf("no start line naming the cells, the folder and the BLAS:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "experiments: suite quick -only=fig1: done: figure CSVs, summary, claims and manifest in "+out) {
		t.Errorf("no end line naming the folder:\n%s", stderr.String())
	}
	// The same command again, without -resume, refuses in one line with exit status 2 and
	// the whole command that resumes; nothing is recomputed.
	before, _ := os.Stat(filepath.Join(out, "fig1.csv"))
	cmd, _, stderr = command(t, "-suite=quick", "-only=fig1", "-workers=1", "-out="+out)
	cmd.Env = append(os.Environ(), "DPGIBO_RERUN=./run_all.sh -suite=quick -only=fig1")
	status := exitStatus(t, cmd.Run())
	msg := stderr.String()
	if status != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, start[1]+" of this run's "+start[1]+" cells finished") ||
		!strings.Contains(msg, "continue it with: ./run_all.sh -suite=quick -only=fig1 -resume") || !strings.Contains(msg, "-overwrite") {
		t.Errorf("a rerun into finished cells: exit status %d, stderr %q; want 2 and one line with the command that resumes", status, msg)
	}
	if after, _ := os.Stat(filepath.Join(out, "fig1.csv")); before == nil || after == nil || !after.ModTime().Equal(before.ModTime()) {
		t.Error("the refused rerun touched fig1.csv")
	}
	// -plan -resume prices what is left: nothing.
	cmd, stdout, stderr := command(t, "-suite=quick", "-only=fig1", "-plan", "-resume", "-measure-speed=false", "-out="+out)
	if status := exitStatus(t, cmd.Run()); status != 0 {
		t.Fatalf("-plan -resume: exit status %d: %s", status, stderr.String())
	}
	if want := "left to run: " + start[1] + " of " + start[1] + " cells are finished"; !strings.Contains(stdout.String(), want) ||
		!regexp.MustCompile(`(?m)^total \(distinct cells\)\s+0\s`).MatchString(stdout.String()) {
		t.Errorf("-plan -resume does not price what is left (%q, a total of 0 cells):\n%s", want, stdout.String())
	}
	cmd, _, stderr = command(t, "-suite=quick", "-only=fig1", "-workers=1", "-resume", "-out="+out)
	if status := exitStatus(t, cmd.Run()); status != 0 {
		t.Fatalf("resume: exit status %d: %s", status, stderr.String())
	}
	if want := "0 cells to run, " + start[1] + " found finished and verified"; !strings.Contains(stderr.String(), want) {
		t.Errorf("the resume does not say what it found (%q):\n%s", want, stderr.String())
	}
	// Another suite's fig1 into the folder, even resumed, refuses in one line with exit
	// status 2, naming what the folder holds; fig1.csv is left as it was.
	before, _ = os.Stat(filepath.Join(out, "fig1.csv"))
	cmd, _, stderr = command(t, "-suite=paper", "-only=fig1", "-seeds=1", "-workers=1", "-resume", "-out="+out)
	status = exitStatus(t, cmd.Run())
	if msg := stderr.String(); status != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "holds fig1 of suite quick (manifest-fig1.json)") || !strings.Contains(msg, "-overwrite") {
		t.Errorf("another suite's fig1 into the folder: exit status %d, stderr %q; want 2 and one line naming quick's fig1", status, msg)
	}
	if after, _ := os.Stat(filepath.Join(out, "fig1.csv")); after == nil || !after.ModTime().Equal(before.ModTime()) {
		t.Error("the refused run of another suite touched fig1.csv")
	}
}

// Kernels whose results depend on memory alignment stop the command before it does
// anything, with one line naming the call, the backend and the fix.
func TestUnrepeatableBLASStopsTheRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	cmd, _, stderr := command(t, "-suite=quick", "-only=fig1", "-out="+out)
	cmd.Env = append(os.Environ(), "DPGIBO_TESTHOOK_SELFCHECK=fail")
	status := exitStatus(t, cmd.Run())
	msg := stderr.String()
	if status != 1 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "experiments: BLAS ") ||
		!strings.Contains(msg, "ddot gives different bits") || !strings.Contains(msg, "offset 24 bytes") {
		t.Errorf("exit status %d, stderr %q; want 1 and one line naming ddot, the offset and the backend", status, msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the stopped command created its output folder (%v)", err)
	}
}
