package rowops

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// BenchmarkDotGeneral times the products of a training step (GCN's hidden layer and its weight
// gradient on Squirrel's 2,223 nodes, GeoMix-III's attention products on PubMed's 19,717 nodes)
// with our executor ("rows") and simplego's, in one run.
func BenchmarkDotGeneral(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	backend, err := simplego.New("ops_sequential")
	if err != nil {
		b.Fatal(err)
	}
	matmul := func(in []*Node) *Node { return MatMul(in[0], in[1]) }
	contractFirst := func(in []*Node) *Node { return DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil) }
	cases := []struct {
		name   string
		fn     func(in []*Node) *Node
		inputs []*tensors.Tensor
	}{
		{"hidden [2223,128]x[128,128]", matmul, []*tensors.Tensor{random[float32](rng, 2223, 128), random[float32](rng, 128, 128)}},
		{"weight-grad [2223,128]^T[2223,128]", contractFirst, []*tensors.Tensor{random[float32](rng, 2223, 128), random[float32](rng, 2223, 128)}},
		{"attention q[19717,16]x[16,83]", matmul, []*tensors.Tensor{random[float32](rng, 19717, 16), random[float32](rng, 16, 83)}},
		{"attention k^T h [19717,16]^T[19717,83]", contractFirst, []*tensors.Tensor{random[float32](rng, 19717, 16), random[float32](rng, 19717, 83)}},
	}
	for _, c := range cases {
		exec := MustNewExec(backend, func(in []*Node) *Node { return c.fn(in) })
		inputs := make([]any, len(c.inputs))
		for i, t := range c.inputs {
			inputs[i] = t
		}
		for _, impl := range []string{"rows", "simplego"} {
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				run := func() {
					for range b.N {
						exec.MustExec(inputs...)[0].FinalizeAll()
					}
				}
				exec.MustExec(inputs...) // compiles
				b.ResetTimer()
				if impl == "simplego" {
					withSimplego(run)
				} else {
					run()
				}
			})
		}
	}
}
