package notebooks_test

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// condaEnv is the part of a conda environment file the project uses.
type condaEnv struct {
	name         string
	channels     []string
	dependencies []string
}

var (
	topKey   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):\s*(\S.*)?$`)
	listItem = regexp.MustCompile(`^  - (\S.*)$`)
	version  = regexp.MustCompile(`[=<>!~ ].*$`)
)

// parseCondaEnv reads the YAML subset conda environment files use here: top-level keys holding a
// scalar or a block list of scalars, comments and blank lines. Anything else (tabs, nesting, flow
// collections, a list item outside a key) is an error naming the line, as is a missing name or an
// unknown top-level key.
func parseCondaEnv(path string) (*condaEnv, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := &condaEnv{}
	var list *[]string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimRight(line, " ")
		switch {
		case line == "" || strings.HasPrefix(strings.TrimSpace(line), "#"):
		case strings.Contains(line, "\t"):
			return nil, fmt.Errorf("%s:%d: tab in YAML indentation", path, n)
		case topKey.MatchString(line):
			m := topKey.FindStringSubmatch(line)
			list = nil
			switch m[1] {
			case "name":
				env.name = m[2]
			case "channels":
				list = &env.channels
			case "dependencies":
				list = &env.dependencies
			default:
				return nil, fmt.Errorf("%s:%d: unexpected top-level key %q", path, n, m[1])
			}
			if list != nil && m[2] != "" {
				return nil, fmt.Errorf("%s:%d: %s must be a block list", path, n, m[1])
			}
		case listItem.MatchString(line):
			item := listItem.FindStringSubmatch(line)[1]
			if list == nil {
				return nil, fmt.Errorf("%s:%d: list item outside channels/dependencies", path, n)
			}
			if strings.ContainsAny(item, "{}[]:") {
				return nil, fmt.Errorf("%s:%d: %q is not a plain package spec", path, n, item)
			}
			*list = append(*list, item)
		default:
			return nil, fmt.Errorf("%s:%d: not in the conda environment YAML subset: %q", path, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if env.name == "" || len(env.dependencies) == 0 {
		return nil, fmt.Errorf("%s: needs a name and dependencies", path)
	}
	return env, nil
}

// packageNames strips version constraints: "go>=1.26" -> "go".
func packageNames(specs []string) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = version.ReplaceAllString(s, "")
	}
	return names
}

func TestEnvironmentYAML(t *testing.T) {
	env, err := parseCondaEnv("../environment.yml")
	if err != nil {
		t.Fatal(err)
	}
	if env.name != "geomix" || !slices.Contains(env.channels, "conda-forge") {
		t.Errorf("name %q, channels %v: want geomix from conda-forge", env.name, env.channels)
	}
	names := packageNames(env.dependencies)
	// The README names jupyter and go; the runner needs nbconvert, nbclient, ipykernel and npm.
	for _, want := range []string{"python", "jupyterlab", "nbconvert", "nbclient", "jupyter_client", "ipykernel", "go", "nodejs"} {
		if !slices.Contains(names, want) {
			t.Errorf("environment.yml lacks %s (has %v)", want, names)
		}
	}
	if !slices.Contains(env.dependencies, "go>=1.26") {
		t.Errorf("environment.yml pins go as %v, want go>=1.26 as go.mod requires", env.dependencies)
	}
}

func TestParseCondaEnvRejectsOtherYAML(t *testing.T) {
	for name, text := range map[string]string{
		"tab":         "name: x\ndependencies:\n\t- go\n",
		"nested":      "name: x\ndependencies:\n  - pip:\n    - numpy\n",
		"flow":        "name: x\ndependencies: [go]\n",
		"stray item":  "  - go\nname: x\n",
		"unknown key": "name: x\nprefix: /opt\ndependencies:\n  - go\n",
		"no deps":     "name: x\n",
	} {
		path := t.TempDir() + "/environment.yml"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parseCondaEnv(path); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
