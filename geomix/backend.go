package geomix

import (
	"os"

	"github.com/gomlx/gomlx/backends"

	"github.com/geomix-go/geomix/internal/rowops"
)

// NewBackend returns the backend $GOMLX_BACKEND names when it is set (e.g. XLA, for users who have
// its plugin installed), else GoMLX's pure-Go backend, whose hot ops (Gather, ScatterSum,
// DotGeneral, Transpose, BroadcastInDim, ReduceSum, ReduceMax, Mul, Add, Sub, Div, Where, Sign,
// Exp, Max, Min, LessOrEqual, Abs, ConvertDType, RNGBitGenerator) run through internal/rowops's
// executors, which it installs first (rowops.Install, an error if the linked GoMLX is not the
// version they were written against): the same numbers, several times faster epochs. Its ops run
// in parallel where the graph allows (GeoMix's feature and label blocks, the pseudo-label pass),
// with an unbounded pool of workers (rowops.UnboundWorkers: simplego's bounded pool deadlocked),
// while it executes one graph at a time, and one after another while several run at once (cells
// trained side by side). The CLI, the notebooks and the tests all create their backend here.
func NewBackend() (backends.Backend, error) {
	if os.Getenv("GOMLX_BACKEND") != "" {
		return backends.New()
	}
	return rowops.NewBackend()
}
