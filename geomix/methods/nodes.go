package methods

import "github.com/gomlx/gomlx/pkg/core/tensors"

// NodeMask returns the [n, 1] 0/1 float32 mask of nodes.
func NodeMask(n int, nodes []int32) *tensors.Tensor {
	mask := make([][]float32, n)
	for i := range mask {
		mask[i] = []float32{0}
	}
	for _, v := range nodes {
		mask[v][0] = 1
	}
	return tensors.FromValue(mask)
}

// identityPerm returns 0, 1, …, n−1.
func identityPerm(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// indexColumn returns indices as an [len, 1] int32 tensor, the form Gather takes.
func indexColumn(indices []int32) *tensors.Tensor {
	out := make([][]int32, len(indices))
	for i, v := range indices {
		out[i] = []int32{v}
	}
	return tensors.FromValue(out)
}
