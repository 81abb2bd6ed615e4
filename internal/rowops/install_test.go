package rowops

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/graph"
)

// overrides reports, for each executor and gradient Install registers, whether it is in place. An
// executor is registered wrapped by counted, whose closures share one code pointer: the op's
// executor is then counted's wrapper, which only Install registers, around the table's own.
func overrides() map[string]bool {
	ptr := func(f any) uintptr { return reflect.ValueOf(f).Pointer() }
	in := map[string]bool{
		"RNGBitGenerator": ptr(multiOutputsNodeExecutors[backends.OpTypeRNGBitGenerator]) == ptr(rngBitGenerator),
		"Mul VJP":         ptr(graph.VJPRegistration[graph.NodeTypeMul]) == ptr(mulVJP),
	}
	for _, e := range executors {
		in[e.op.String()] = ptr(nodeExecutors[e.op]) == ptr(counted(e.ours))
	}
	return in
}

// importOnly is overrides() and whether simplego's Gather executor was its own execGather, read
// after every package of the test binary was initialised, before Install.
var importOnly struct {
	overrides       map[string]bool
	simplegosGather bool
}

// TestMain installs the executors for the package's tests, after noting what importing the
// package alone left in simplego.
func TestMain(m *testing.M) {
	importOnly.overrides = overrides()
	importOnly.simplegosGather = reflect.ValueOf(nodeExecutors[backends.OpTypeGather]).Pointer() == reflect.ValueOf(simplegoGather).Pointer()
	if err := Install(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestImportInstallsNothing: importing the package leaves simplego's executors and GoMLX's Mul
// gradient as they were (a fresh simplego backend runs simplego's own Gather); Install puts every
// one of ours in place, and a second Install is a no-op.
func TestImportInstallsNothing(t *testing.T) {
	if !importOnly.simplegosGather {
		t.Error("before Install, simplego's Gather executor is not its own execGather")
	}
	for _, name := range slices.Sorted(maps.Keys(importOnly.overrides)) {
		if importOnly.overrides[name] {
			t.Errorf("importing rowops installed its %s", name)
		}
	}
	if err := Install(); err != nil {
		t.Fatalf("second Install: %v", err)
	}
	after := overrides()
	for _, name := range slices.Sorted(maps.Keys(after)) {
		if !after[name] {
			t.Errorf("after Install, %s is not rowops's", name)
		}
	}
}

// TestInstallChecksVersion: checkGoMLXVersion accepts GoMLXVersion and a binary without GoMLX, and
// rejects another version or a replaced module, naming both versions.
func TestInstallChecksVersion(t *testing.T) {
	other := &debug.Module{Path: "golang.org/x/sys", Version: "v0.49.0"}
	for _, deps := range [][]*debug.Module{nil, {other}, {other, {Path: gomlxModule, Version: GoMLXVersion}}} {
		if err := checkGoMLXVersion(deps); err != nil {
			t.Errorf("checkGoMLXVersion(%d deps): %v; want nil", len(deps), err)
		}
	}
	for _, m := range []*debug.Module{
		{Path: gomlxModule, Version: "v99.0.0"},
		{Path: gomlxModule, Version: GoMLXVersion, Replace: &debug.Module{Path: "../gomlx"}},
	} {
		err := checkGoMLXVersion([]*debug.Module{other, m})
		if err == nil || !strings.Contains(err.Error(), "written against GoMLX "+GoMLXVersion+" but "+gomlxModule+" "+m.Version) {
			t.Errorf("checkGoMLXVersion(%s %s, replace %v): %v; want an error naming both versions", m.Path, m.Version, m.Replace, err)
		}
	}
}

// TestGoModRequiresGoMLXVersion: the module's go.mod requires GoMLX at GoMLXVersion, the release
// the executors were written against, and does not replace it.
func TestGoModRequiresGoMLXVersion(t *testing.T) {
	const goMod = "../../go.mod"
	f, err := os.Open(goMod)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var required []string
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line, _, _ := strings.Cut(scanner.Text(), "//")
		fields := strings.Fields(line)
		if len(fields) > 0 && (fields[0] == "require" || fields[0] == "replace") && len(fields) > 1 && fields[1] != "(" {
			fields = fields[1:] // a one-line directive
		}
		switch {
		case len(fields) == 0 || fields[0] != gomlxModule:
		case len(fields) > 2 && fields[1] == "=>" || len(fields) > 3 && fields[2] == "=>":
			t.Errorf("%s replaces %s (%q); internal/rowops was written against %s %s itself", goMod, gomlxModule, strings.TrimSpace(line), gomlxModule, GoMLXVersion)
		case len(fields) >= 2:
			required = append(required, fields[1])
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(required) != 1 || required[0] != GoMLXVersion {
		t.Fatalf("%s requires %s %s, but internal/rowops was written against GoMLX %s (rowops.GoMLXVersion) and its "+
			"executors reach simplego's unexported internals: check every executor against the new release (go test "+
			"./internal/rowops compares them with simplego's own), then update rowops.GoMLXVersion",
			goMod, gomlxModule, strings.Join(required, " and "), GoMLXVersion)
	}
}

// TestDocListsExecutors: the package doc's list of replaced executors names exactly the ops of the
// executors table and RNGBitGenerator.
func TestDocListsExecutors(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "rowops.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(f.Doc.Text(), "# Replaced executors")
	section, _, _ = strings.Cut(section, "\n# ")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if item, ok := strings.CutPrefix(line, "  - "); ok {
			names, _, _ := strings.Cut(item, " (")
			for _, name := range strings.Split(names, ", ") {
				listed = append(listed, strings.Fields(name)[0])
			}
		}
	}
	want := []string{backends.OpTypeRNGBitGenerator.String()}
	for _, e := range executors {
		want = append(want, e.op.String())
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("the package doc lists the executors of %v; Install replaces those of %v", listed, want)
	}
}
