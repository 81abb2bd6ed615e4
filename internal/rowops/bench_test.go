package rowops

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/backends/simplego"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// benchCase is a graph and its inputs, timed with our executors and with simplego's.
type benchCase struct {
	name   string
	fn     func(in []*Node) *Node
	inputs []*tensors.Tensor
}

// benchmarkAgainstSimplego times every case with our executors ("rows"), with them on their
// portable loops alone ("portable", the vector kernels switched off) and with simplego's, in one
// run.
func benchmarkAgainstSimplego(b *testing.B, cases []benchCase) {
	backend, err := simplego.New("ops_sequential")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		exec := MustNewExec(backend, func(in []*Node) *Node { return c.fn(in) })
		inputs := make([]any, len(c.inputs))
		for i, t := range c.inputs {
			inputs[i] = t
		}
		for _, impl := range []string{"rows", "portable", "simplego"} {
			b.Run(c.name+"/"+impl, func(b *testing.B) {
				run := func() {
					for range b.N {
						exec.MustExec(inputs...)[0].FinalizeAll()
					}
				}
				exec.MustExec(inputs...) // compiles
				b.ResetTimer()
				switch impl {
				case "rows":
					run()
				case "portable":
					withPortableLoops(run)
				case "simplego":
					withSimplego(run)
				}
			})
		}
	}
}

// BenchmarkDotGeneral times the products of a training step (GCN's hidden layer and its weight
// gradient on Squirrel's 2,223 nodes, DANN's discriminator on Twitch's 34,118 nodes, GeoMix-III's
// attention products on PubMed's 19,717 nodes).
func BenchmarkDotGeneral(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	matmul := func(in []*Node) *Node { return MatMul(in[0], in[1]) }
	contractFirst := func(in []*Node) *Node { return DotGeneral(in[0], []int{0}, nil, in[1], []int{0}, nil) }
	benchmarkAgainstSimplego(b, []benchCase{
		{"hidden [2223,128]x[128,128]", matmul, []*tensors.Tensor{random[float32](rng, 2223, 128), random[float32](rng, 128, 128)}},
		{"weight-grad [2223,128]^T[2223,128]", contractFirst, []*tensors.Tensor{random[float32](rng, 2223, 128), random[float32](rng, 2223, 128)}},
		{"DANN's discriminator [34118,50]x[50,50] (a tail group of 2)", matmul, []*tensors.Tensor{random[float32](rng, 34118, 50), random[float32](rng, 50, 50)}},
		{"fashion-mnist's weight gradient Xᵀ g [784,15000]x[15000,512] (node Mixup's first layer)", func(in []*Node) *Node { return DotGeneral(in[0], []int{1}, nil, in[1], []int{0}, nil) },
			[]*tensors.Tensor{random[float32](rng, 784, 15000), random[float32](rng, 15000, 512)}},
		{"weight-grad [34118,256]^T[34118,256] (node Mixup's width on Twitch)", contractFirst, []*tensors.Tensor{random[float32](rng, 34118, 256), random[float32](rng, 34118, 256)}},
		{"attention q[19717,16]x[16,83]", matmul, []*tensors.Tensor{random[float32](rng, 19717, 16), random[float32](rng, 16, 83)}},
		{"attention k^T h [19717,16]^T[19717,83]", contractFirst, []*tensors.Tensor{random[float32](rng, 19717, 16), random[float32](rng, 19717, 83)}},
		{"output-layer weight-grad [2708,16]^T[2708,7]", contractFirst, []*tensors.Tensor{random[float32](rng, 2708, 16), random[float32](rng, 2708, 7)}},
		{"output-layer weight-grad [19717,16]^T[19717,3]", contractFirst, []*tensors.Tensor{random[float32](rng, 19717, 16), random[float32](rng, 19717, 3)}},
		{"output-layer weight-grad [2223,128]^T[2223,5]", contractFirst, []*tensors.Tensor{random[float32](rng, 2223, 128), random[float32](rng, 2223, 5)}},
		{"output-layer weight-grad [890,64]^T[890,5]", contractFirst, []*tensors.Tensor{random[float32](rng, 890, 64), random[float32](rng, 890, 5)}},
		{"output-layer weight-grad [3327,64]^T[3327,6]", contractFirst, []*tensors.Tensor{random[float32](rng, 3327, 64), random[float32](rng, 3327, 6)}},
		{"output-layer weight-grad [34493,64]^T[34493,5]", contractFirst, []*tensors.Tensor{random[float32](rng, 34493, 64), random[float32](rng, 34493, 5)}},
	})
}

// BenchmarkPropagation times one propagation Â x on Squirrel's sizes (2,223 nodes, 96,219
// messages: edges both ways and self-loops; width 128): Gather the messages, weight them, sum
// them into their nodes. The weights [E, 1] scale the messages' rows through Mul's implicit
// broadcast, which simplego walks element by element and our executors run fused with the gather
// and the sum (fuse.go); "broadcast" weights them as geomix did before the row scaling, by the
// weights broadcast to [E, 128] first, which our executors run as three passes.
func BenchmarkPropagation(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	const e, n, d = 96219, 2223, 128
	x, weights := random[float32](rng, n, d), random[float32](rng, e, 1)
	src := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	dst := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	propagate := func(broadcast bool) func(in []*Node) *Node {
		return func(in []*Node) *Node {
			msgs, w := Gather(in[0], in[1]), in[3]
			if broadcast {
				w = BroadcastToShape(w, msgs.Shape())
			}
			return ScatterSum(ZerosLike(in[0]), in[2], Mul(msgs, w), false, false)
		}
	}
	benchmarkAgainstSimplego(b, []benchCase{
		{"weights [E,1]", propagate(false), []*tensors.Tensor{x, src, dst, weights}},
		{"weights broadcast to [E,128]", propagate(true), []*tensors.Tensor{x, src, dst, weights}},
	})
}

// BenchmarkRows times a whole-row Gather and a whole-row ScatterSum on their own (not fused) on
// Squirrel's sizes: 96,219 messages of width 128 gathered from, and summed into, [2223, 128].
func BenchmarkRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(17, 18))
	const e, n, d = 96219, 2223, 128
	idx := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	benchmarkAgainstSimplego(b, []benchCase{
		{"gather [2223,128] by [E,1]", func(in []*Node) *Node { return Gather(in[0], in[1]) },
			[]*tensors.Tensor{random[float32](rng, n, d), idx}},
		{"scatter-sum [E,128] into [2223,128]", func(in []*Node) *Node { return ScatterSum(in[0], in[1], in[2], false, false) },
			[]*tensors.Tensor{random[float32](rng, n, d), idx, random[float32](rng, e, d)}},
	})
}

// BenchmarkFusedGradients times the gradients the fused sums run: GoMLX's gradient of a hidden
// product on Squirrel's 2,223 nodes (both operands, sums.go), and GAT's attention-weight gradient,
// a dot per edge and head of two gathered [E, 8, 16] tensors over Squirrel's 96,219 messages
// (dots.go); simplego makes the [2223, 128, 128] broadcast and products, and the gathers.
func BenchmarkFusedGradients(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 14))
	const e, n, heads, width = 96219, 2223, 8, 16
	src := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	dst := tensors.FromFlatDataAndDimensions(randomIndices[int32](rng, e, n), e, 1)
	benchmarkAgainstSimplego(b, []benchCase{
		{"product gradient [2223,128]x[128,128]", matMulGrads,
			[]*tensors.Tensor{random[float32](rng, n, 128), random[float32](rng, 128, 128), random[float32](rng, n, 128)}},
		{"attention-weight gradient [E,8,16]", func(in []*Node) *Node { return gatheredDot(in[0], in[1], in[2], in[3], 2) },
			[]*tensors.Tensor{random[float32](rng, n, heads, width), src, random[float32](rng, n, heads, width), dst}},
	})
}
