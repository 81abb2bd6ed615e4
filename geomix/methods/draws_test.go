package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// TestBetaSymmetric: Beta(4, 4) draws have mean 1/2 and variance 1/36.
func TestBetaSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 40000
	var sum, sq float64
	for range n {
		x := betaSymmetric(rng, 4)
		if x <= 0 || x >= 1 {
			t.Fatalf("draw %v outside (0, 1)", x)
		}
		sum += x
		sq += x * x
	}
	mean := sum / n
	variance := sq/n - mean*mean
	if math.Abs(mean-0.5) > 0.003 || math.Abs(variance-1.0/36) > 0.001 {
		t.Errorf("mean %.4f, variance %.5f; want 0.5, %.5f", mean, variance, 1.0/36)
	}
}

// TestTrainPartners: node Mixup pairs train nodes among themselves; other nodes keep themselves.
func TestTrainPartners(t *testing.T) {
	run := &Run{Graph: testutil.TinyGraph(), RNG: rand.New(rand.NewPCG(3, 3)), Train: []int32{0, 1, 10, 11, 20, 21}}
	perm := (&nodeMixup{beta: 4}).Draw(run, 0).Inputs[0].(*tensors.Tensor).Value().([][]int32)
	seen := map[int32]bool{}
	for i, p := range perm {
		isTrain := i == 0 || i == 1 || i == 10 || i == 11 || i == 20 || i == 21
		if !isTrain && p[0] != int32(i) {
			t.Errorf("node %d (not train) paired with %d", i, p[0])
		}
		if isTrain {
			seen[p[0]] = true
		}
	}
	if len(seen) != 6 || !seen[0] || !seen[21] {
		t.Errorf("train partners %v: want a permutation of the train nodes", seen)
	}
}
