package scalebench

import (
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/internal/rowops"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
)

// NewBackend returns geomix.NewBackend's backend, or with sequential the same executors (the same
// numbers) running one op at a time. At these sizes every large op already splits its work over
// the cores, and running independent ops at once only holds more buffers at the same time:
// GeoMix-I on 64,000 nodes (3.2M directed edges) peaked at 499 MiB of heap one op at a time against
// 717 MiB in parallel, for the same CPU time per epoch.
func NewBackend(sequential bool) (backends.Backend, error) {
	if !sequential {
		return geomix.NewBackend()
	}
	if err := rowops.Install(); err != nil {
		return nil, err
	}
	return simplego.New("ops_sequential")
}
