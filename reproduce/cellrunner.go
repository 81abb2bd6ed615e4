package main

import (
	"io"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// presetCellRunner is the table commands' tables.CellRunner: tables.PresetCells on one backend
// (geomix.NewBackend) shared by all cells, data from $GEOMIX_DATA or the user cache, progress
// and notes to out.
func presetCellRunner(out io.Writer) (tables.CellRunner, error) {
	backend, err := geomix.NewBackend()
	if err != nil {
		return nil, err
	}
	return tables.PresetCells(backend, datasets.Options{}, out), nil
}
