package geomix

import (
	"os"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"

	_ "github.com/geomix-go/geomix/internal/rowops" // faster executors of simplego's hot ops, same numbers
)

// SimpleGoConfig is the configuration to create GoMLX v0.26's pure-Go backend with
// (simplego.New(SimpleGoConfig)): its parallel op scheduler deadlocked intermittently (workers
// waiting on a sync.Cond forever) in our training loops, so ops run sequentially.
const SimpleGoConfig = "ops_sequential"

// NewBackend returns the backend $GOMLX_BACKEND names when it is set (e.g. XLA, for users who have
// its plugin installed), else GoMLX's pure-Go backend with SimpleGoConfig, whose hot ops (Gather,
// ScatterSum, DotGeneral, Transpose, BroadcastInDim, ReduceSum, ReduceMax, Mul, Add, Sub, Div,
// Where, Sign) run through internal/rowops's executors: the same numbers, several times faster
// epochs. The CLI, the notebooks and the tests
// all create their backend here.
func NewBackend() (backends.Backend, error) {
	if os.Getenv("GOMLX_BACKEND") != "" {
		return backends.New()
	}
	return simplego.New(SimpleGoConfig)
}
