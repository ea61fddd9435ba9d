// Package cluster holds the scripts that run a suite on a cluster (slurm.sh, k8s-job.yaml);
// its test checks the Kubernetes manifest, which no engine runs here (kubectl's dry run
// needs an API server). slurm.sh is run for real by test-slurm.sh.
package cluster

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// job is the part of a batch/v1 Job that the runner's sharding depends on.
type job struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		BackoffLimit   int    `yaml:"backoffLimit"`
		Template       struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name         string   `yaml:"name"`
					Image        string   `yaml:"image"`
					WorkingDir   string   `yaml:"workingDir"`
					Command      []string `yaml:"command"`
					Args         []string `yaml:"args"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim *struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// The manifest must shard as the runner expects: an Indexed Job whose completions equal
// the N of -shard=K/N with K the completion index, every pod resuming into one shared
// volume (a claim, mounted where -out points), restarted on failure.
func TestK8sJobShardsAsTheRunnerExpects(t *testing.T) {
	b, err := os.ReadFile("k8s-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var j job
	if err := yaml.Unmarshal(b, &j); err != nil {
		t.Fatalf("k8s-job.yaml: %v", err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" {
		t.Errorf("apiVersion %q kind %q, want batch/v1 Job", j.APIVersion, j.Kind)
	}
	if j.Spec.CompletionMode != "Indexed" {
		t.Errorf("completionMode %q: JOB_COMPLETION_INDEX is set only for Indexed Jobs", j.Spec.CompletionMode)
	}
	if j.Spec.Template.Spec.RestartPolicy != "OnFailure" || j.Spec.BackoffLimit < j.Spec.Completions {
		t.Errorf("restartPolicy %q, backoffLimit %d: a failed pod must be restarted (it resumes)", j.Spec.Template.Spec.RestartPolicy, j.Spec.BackoffLimit)
	}
	containers := j.Spec.Template.Spec.Containers
	if len(containers) != 1 {
		t.Fatalf("%d containers, want the runner alone", len(containers))
	}
	c := containers[0]
	cmdline := strings.Join(append(append([]string(nil), c.Command...), c.Args...), " ")
	shard := regexp.MustCompile(`-shard="?\$\{JOB_COMPLETION_INDEX\}/(\d+)"?`).FindStringSubmatch(cmdline)
	if shard == nil {
		t.Fatalf("command %q has no -shard=${JOB_COMPLETION_INDEX}/N", cmdline)
	}
	if n, _ := strconv.Atoi(shard[1]); n != j.Spec.Completions || n != j.Spec.Parallelism {
		t.Errorf("-shard=K/%s but completions %d, parallelism %d: every shard must run once", shard[1], j.Spec.Completions, j.Spec.Parallelism)
	}
	for _, flag := range []string{"./experiments", "-suite=paper", "-resume"} {
		if !strings.Contains(cmdline, flag) {
			t.Errorf("command %q lacks %s", cmdline, flag)
		}
	}
	out := regexp.MustCompile(`-out[= ](\S+)`).FindStringSubmatch(cmdline)
	if out == nil {
		t.Fatalf("command %q has no -out", cmdline)
	}
	claims := map[string]bool{}
	for _, v := range j.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName != "" {
			claims[v.Name] = true
		}
	}
	shared := false
	for _, m := range c.VolumeMounts {
		if m.MountPath == out[1] && claims[m.Name] {
			shared = true
		}
		if m.MountPath == c.WorkingDir && claims[m.Name] {
			t.Errorf("the source is mounted from the shared claim %q", m.Name)
		}
	}
	if !shared {
		t.Errorf("-out %s is not a volume from a persistent claim: the shards would not see each other's cells", out[1])
	}
}
