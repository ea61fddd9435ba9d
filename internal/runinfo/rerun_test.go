package runinfo

import (
	"os"
	"strings"
	"testing"
)

// Rerun repeats the command line with the flag asked for: run_all.sh's when it set
// DPGIBO_RERUN, the program's own otherwise, with -resume and -overwrite dropped and any
// argument a shell would split quoted.
func TestRerun(t *testing.T) {
	t.Setenv(RerunEnv, "")
	os.Unsetenv(RerunEnv)
	got := Rerun([]string{"-suite=paper", "-overwrite", "-only=fig3c", "-out", "my results", "-resume"}, "-resume")
	want := os.Args[0] + " -suite=paper -only=fig3c -out 'my results' -resume"
	if strings.Contains(os.Args[0], "go-build") {
		want = "go run ./experiments -suite=paper -only=fig3c -out 'my results' -resume"
	}
	if got != want {
		t.Errorf("Rerun = %q, want %q", got, want)
	}
	if got := Rerun(nil, "-resume"); got != "" {
		t.Errorf("Rerun(nil) = %q, want \"\" (a caller of the API has no command line)", got)
	}
	t.Setenv(RerunEnv, "OUT=/scratch ./run_all.sh -only=fig1")
	if got, want := Rerun([]string{"-suite=paper"}, "-resume"), "OUT=/scratch ./run_all.sh -only=fig1 -resume"; got != want {
		t.Errorf("with %s set: Rerun = %q, want %q", RerunEnv, got, want)
	}
}
