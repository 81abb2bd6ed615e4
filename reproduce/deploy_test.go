package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestKubernetesManifest parses deploy/k8s/sweep-job.yaml and checks what the Indexed Job needs: an
// indexed batch/v1 Job whose GEOMIX_SHARDS equals its completions, a reproduce sweep writing to a
// mounted results volume backed by a claim, the data root mounted where GEOMIX_DATA points, and a
// grace period for the sweep to stop at a safe point.
func TestKubernetesManifest(t *testing.T) {
	data, err := os.ReadFile("../deploy/k8s/sweep-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type mount struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	}
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					RestartPolicy string `yaml:"restartPolicy"`
					Grace         int    `yaml:"terminationGracePeriodSeconds"`
					Containers    []struct {
						Image   string   `yaml:"image"`
						Command []string `yaml:"command"`
						Args    []string `yaml:"args"`
						Env     []struct {
							Name  string `yaml:"name"`
							Value string `yaml:"value"`
						} `yaml:"env"`
						VolumeMounts []mount `yaml:"volumeMounts"`
					} `yaml:"containers"`
					Volumes []struct {
						Name string `yaml:"name"`
						PVC  struct {
							ClaimName string `yaml:"claimName"`
						} `yaml:"persistentVolumeClaim"`
					} `yaml:"volumes"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(data, &job); err != nil {
		t.Fatalf("sweep-job.yaml is not valid YAML: %v", err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Completions < 2 || s.Parallelism < 1 {
		t.Fatalf("want an Indexed batch/v1 Job with completions >= 2: %s %s %s completions %d parallelism %d",
			job.APIVersion, job.Kind, s.CompletionMode, s.Completions, s.Parallelism)
	}
	pod := s.Template.Spec
	if len(pod.Containers) != 1 || pod.RestartPolicy == "" || pod.RestartPolicy == "Always" || pod.Grace < 30 {
		t.Fatalf("want one container, restartPolicy Never or OnFailure and a grace period >= 30 s: %d, %q, %d", len(pod.Containers), pod.RestartPolicy, pod.Grace)
	}
	c := pod.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env[envShards] != strconv.Itoa(s.Completions) {
		t.Errorf("%s = %q, want the completions %d", envShards, env[envShards], s.Completions)
	}
	if c.Image == "" || len(c.Command) == 0 || !strings.HasSuffix(c.Command[0], "reproduce") || len(c.Args) == 0 {
		t.Fatalf("want an image running reproduce with a sweep: %q %v %v", c.Image, c.Command, c.Args)
	}
	if _, ok := commands[c.Args[0]]; !ok {
		t.Errorf("args[0] %q is not a reproduce command", c.Args[0])
	}
	out := ""
	for i, a := range c.Args {
		if a == "--out" && i+1 < len(c.Args) {
			out = c.Args[i+1]
		}
	}
	claims := map[string]string{}
	for _, v := range pod.Volumes {
		claims[v.Name] = v.PVC.ClaimName
	}
	mounted := map[string]string{}
	for _, m := range c.VolumeMounts {
		if claims[m.Name] == "" {
			t.Errorf("volume mount %s has no persistentVolumeClaim volume", m.Name)
		}
		mounted[m.MountPath] = m.Name
	}
	if out == "" || mounted[out] == "" {
		t.Errorf("--out %q is not a mounted volume (mounts %v)", out, mounted)
	}
	if env["GEOMIX_DATA"] == "" || mounted[env["GEOMIX_DATA"]] == "" {
		t.Errorf("GEOMIX_DATA %q is not a mounted volume (mounts %v)", env["GEOMIX_DATA"], mounted)
	}
}

// TestSlurmScript checks deploy/slurm/sweep.sbatch: a bash script whose #SBATCH lines declare a
// contiguous job array and a warning signal, running reproduce with --out and without --shard (the
// array's variables give it).
func TestSlurmScript(t *testing.T) {
	data, err := os.ReadFile("../deploy/slurm/sweep.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "#!/bin/bash\n") {
		t.Error("sweep.sbatch does not start with #!/bin/bash")
	}
	directives := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "#SBATCH --"); ok {
			key, value, _ := strings.Cut(rest, "=")
			directives[key] = value
		}
	}
	if !regexp.MustCompile(`^\d+-\d+$`).MatchString(directives["array"]) {
		t.Errorf("--array=%q: want a contiguous range such as 0-2", directives["array"])
	}
	if !strings.Contains(directives["signal"], "TERM@") {
		t.Errorf("--signal=%q: want SIGTERM before the time limit", directives["signal"])
	}
	for _, key := range []string{"time", "cpus-per-task", "mem", "output"} {
		if directives[key] == "" {
			t.Errorf("no #SBATCH --%s", key)
		}
	}
	if !regexp.MustCompile(`(?m)^exec "\$REPRODUCE" "\$SWEEP" --out `).MatchString(text) || strings.Contains(text, "--shard ") {
		t.Error("the script does not exec reproduce with --out (and no --shard)")
	}
}
