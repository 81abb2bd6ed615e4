package rowops

import (
	"fmt"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
)

// NewBackend installs this package's executors (Install) and returns GoMLX's pure-Go backend with
// an unbounded pool of workers (UnboundWorkers): the backend geomix.NewBackend gives when
// $GOMLX_BACKEND is unset.
func NewBackend() (backends.Backend, error) {
	if err := Install(); err != nil {
		return nil, fmt.Errorf("creating the pure-Go backend: %w", err)
	}
	b, err := simplego.New("")
	if err != nil {
		return nil, err
	}
	if err := UnboundWorkers(b.(*simplego.Backend)); err != nil {
		return nil, fmt.Errorf("creating the pure-Go backend: %w", err)
	}
	return b, nil
}
