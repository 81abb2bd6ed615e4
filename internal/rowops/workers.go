package rowops

import (
	"errors"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/gomlx/gomlx/backends/simplego"
)

// UnboundWorkers lifts the cap on backend's pool of workers (simplego's "parallelism", by default
// the number of CPUs), so that its parallel op scheduler starts every ready op at once instead of
// waiting for a free worker. With the cap, an op that splits its own work over the pool
// (simplego's small DotGeneral, for one) waits for workers while holding one, and when every
// worker does so the execution never ends: our training loops deadlocked intermittently that way.
// Unbounded, nothing waits for a worker, and Go's scheduler shares the cores among the ops in
// flight. An op's values do not depend on when it runs, so results are the same as one op at a
// time (TestParallelOpsMatchSequential in package geomix).
//
// Under `go test -race` the parallel scheduler reports races of its own: an op reads its inputs'
// use counts without the lock they are counted under, to decide whether it may overwrite an input
// whose other users have finished, and the detector then sees that overwrite unordered with those
// users' reads. An op only overwrites an input once every other use of it is counted, and a use is
// counted after its op has run, so the overwrite follows the reads.
//
// simplego.New("parallelism=-1") sets the same, but prints a line on standard output; the field
// is set here through reflection instead (GoMLXVersion, pinned in go.mod), with an error if
// simplego has no such field.
func UnboundWorkers(backend *simplego.Backend) error {
	f := reflect.ValueOf(backend).Elem().FieldByName("workers")
	if f.IsValid() {
		f = f.FieldByName("maxParallelism")
	}
	if !f.IsValid() || f.Kind() != reflect.Int {
		return errors.New("simplego.Backend has no int field workers.maxParallelism: GoMLX is not at " + GoMLXVersion + ", the version go.mod pins")
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetInt(-1)
	return nil
}

// running counts the executions of this package's executors in progress in the process, over
// every backend (counted wraps them when Install registers them).
var running atomic.Int32

// counted wraps exec so that running counts its executions in progress. Not inlined, so that every
// wrapper has one code pointer, counted's closure (the install test compares executors by it).
//
//go:noinline
func counted(exec executor) executor {
	return func(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) (*simplego.Buffer, error) {
		running.Add(1)
		defer running.Add(-1)
		return exec(backend, node, inputs, inputsOwned)
	}
}

// alone reports whether no other of this package's executors runs at the moment, besides the
// caller's own: an op that splits its work among the cores then takes cores no other op uses.
func alone() bool { return running.Load() <= 1 }
