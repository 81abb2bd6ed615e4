package main

import (
	"os"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// presetCellRunner is the table commands' tables.CellRunner: tables.PresetCells on one backend
// (geomix.NewBackend) shared by all cells, data from $GEOMIX_DATA or the user cache.
func presetCellRunner() (tables.CellRunner, error) {
	backend, err := geomix.NewBackend()
	if err != nil {
		return nil, err
	}
	return tables.PresetCells(backend, datasets.Options{}, os.Stderr), nil
}
