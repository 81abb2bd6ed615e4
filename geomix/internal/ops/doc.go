// Package ops holds the graph-building helpers that GeoMix's packages share and that users need
// not see: matrix products with the gradients internal/rowops runs fast (MatMulFastGrad), the
// explicit row broadcast (AddRow), and the switch of the backbones' shared propagations.
package ops

// ShareBackbonePropagations lets a step's evaluation and training passes share the backbones'
// propagations of the same input (mixing.PropagateShared). Only the test that compares training
// with and without sharing sets it to false.
var ShareBackbonePropagations = true
