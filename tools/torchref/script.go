// Package torchref holds the reference algorithm in PyTorch, geomix_ref.py (see README.md), for the
// Go tools that run it: `reproduce bench --against-torch` times it beside our trainer.
package torchref

import _ "embed"

// Script is the text of geomix_ref.py, to be written to a file and run with a python3 that
// imports torch.
//
//go:embed geomix_ref.py
var Script []byte
