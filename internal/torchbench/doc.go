// Package torchbench times our training epochs beside the reference algorithm in PyTorch
// (tools/torchref/geomix_ref.py --bench) on the same arrays and hyper-parameters, each side in
// processes of its own, for `reproduce bench --against-torch`: the interpreter that imports torch
// (FindPython), the script's flags for a preset (Flags), one PyTorch timing (BenchTorch) and the
// interleaved comparison (Compare).
package torchbench
