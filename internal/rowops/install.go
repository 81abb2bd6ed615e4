package rowops

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/graph"
)

// GoMLXVersion is the GoMLX release whose simplego internals (unexported executors, node fields,
// registration tables) and Mul gradient the executors were written against. go.mod must require
// exactly this version (TestGoModRequiresGoMLXVersion), and Install refuses any other linked one.
const GoMLXVersion = "v0.26.0"

// gomlxModule is GoMLX's module path.
const gomlxModule = "github.com/gomlx/gomlx"

var (
	installOnce sync.Once
	installErr  error
)

// Install registers the package's executors in simplego, for every simplego backend of the
// process (the ops of the executors table with the backend's "user override" priority, and
// RNGBitGenerator), and its gradients of Mul and Slice in GoMLX's graph package. It first checks that the
// linked GoMLX module is GoMLXVersion and returns an error, installing nothing, when it is not; a
// binary whose build information does not list GoMLX (some test binaries) is not checked.
// Install is idempotent and safe to call from several goroutines: only the first call installs,
// and every call returns the first one's error. Call it before building the graphs that should
// use the executors (geomix.NewBackend does, for its pure-Go backend); importing the package
// changes nothing.
func Install() error {
	installOnce.Do(func() {
		info, ok := debug.ReadBuildInfo()
		if ok {
			if installErr = checkGoMLXVersion(info.Deps); installErr != nil {
				return
			}
		}
		for _, e := range executors {
			setNodeExecutor(e.op, priorityUser, counted(e.ours))
		}
		multiOutputsNodeExecutors[backends.OpTypeRNGBitGenerator] = rngBitGenerator
		graph.VJPRegistration[graph.NodeTypeMul] = mulVJP
		graph.VJPRegistration[graph.NodeTypeSlice] = sliceVJP
	})
	return installErr
}

// checkGoMLXVersion returns an error when deps (a binary's module dependencies) link a GoMLX
// other than GoMLXVersion, or replace it; nil when they are GoMLXVersion or do not list GoMLX.
func checkGoMLXVersion(deps []*debug.Module) error {
	for _, d := range deps {
		if d.Path != gomlxModule {
			continue
		}
		linked := d.Version
		if d.Replace != nil {
			linked = strings.TrimSpace(fmt.Sprintf("%s (replaced by %s %s", d.Version, d.Replace.Path, d.Replace.Version)) + ")"
		}
		if d.Replace != nil || d.Version != GoMLXVersion {
			return fmt.Errorf("internal/rowops was written against GoMLX %s but %s %s is linked: its executors reach simplego's "+
				"unexported internals, so check them against the new release (the rowops tests compare every executor with "+
				"simplego's own) and update rowops.GoMLXVersion, or pin %s %s in go.mod",
				GoMLXVersion, gomlxModule, linked, gomlxModule, GoMLXVersion)
		}
	}
	return nil
}
