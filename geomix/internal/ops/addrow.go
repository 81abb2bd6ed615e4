package ops

import (
	"fmt"

	. "github.com/gomlx/gomlx/pkg/core/graph"
)

// AddRow returns h [N, D] plus v [D] on every row, broadcast explicitly: the pure-Go backend adds
// equal shapes in a plain loop but walks an index iterator per element when Add broadcasts.
func AddRow(h, v *Node) *Node {
	if v.Rank() != 1 || h.Rank() != 2 || h.Shape().Dim(1) != v.Shape().Dim(0) {
		panic(fmt.Sprintf("AddRow: want h [N, D] and v [D], got %s and %s", h.Shape(), v.Shape()))
	}
	return Add(h, BroadcastToShape(InsertAxes(v, 0), h.Shape()))
}
