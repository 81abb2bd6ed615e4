package geomix

import (
	"os"
	"sync"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/gomlx/gomlx/backends"
)

var (
	backendOnce sync.Once
	backendVal  backends.Backend
	backendErr  error
)

// testBackend is the pure-Go backend, shared by all tests.
func testBackend(tb testing.TB) backends.Backend {
	backendOnce.Do(func() { backendVal, backendErr = NewBackend() })
	if backendErr != nil {
		tb.Fatalf("creating the simplego backend: %v", backendErr)
	}
	return backendVal
}

// loadOrSkip loads a real data set from $GEOMIX_DATA, skipping when the variable is unset or the
// files are missing.
func loadOrSkip(tb testing.TB, name string) *datasets.Graph {
	root := os.Getenv(datasets.EnvData)
	if root == "" {
		tb.Skipf("$%s is not set: skipping the test on real data %q", datasets.EnvData, name)
	}
	g, err := datasets.Load(name, datasets.Options{Root: root, Offline: true})
	if err != nil {
		tb.Skipf("data set %q not available under $%s=%s: %v", name, datasets.EnvData, root, err)
	}
	return g
}
