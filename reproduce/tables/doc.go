// Package tables reproduces the result tables and figures of the GeoMix paper (KDD'24): it holds
// the paper's numbers as data, runs the cells of a table or the points of a figure through a
// caller-supplied runner (resumable: every finished cell is one JSON record, written atomically),
// and renders Markdown reports that compare our results with the paper's.
//
// The CLI (go run ./reproduce table2|table5|tune|figure-hyper|list ...) and the notebooks share this
// package; notebooks read committed records through CommittedOrQuick and its figure counterparts
// instead of re-implementing anything.
//
// Usage, training Table 5's missing cells into results/ and rendering results/table5.md:
//
//	spec, _ := tables.SpecFor("table5")
//	runner := tables.PresetCells(backend, datasets.Options{}, os.Stderr)
//	sweep, err := tables.Run(spec, runner, tables.Options{OutDir: "results"})
//
// and reading the committed records without training:
//
//	report, err := tables.LoadReport("results", "table5")
//	fmt.Print(report.Markdown())
//
// Where things are, by file name:
//   - The paper's numbers: paper_tables.go (Tables 2-5 as printed), names.go (printed names),
//     catalog.go (every table and figure, with what the toolkit can run).
//   - The table runner: table_specs.go (which cells of each table run, and how), table_run.go
//     (Run, Plan, WriteReport), with what it shares with the figures in cell.go, options.go,
//     sweep.go (cells trained Options.Jobs at a time, stopped through Options.Stop), record.go
//     (the JSON records), gitrev.go and preset_runners.go (the runners built on the authors'
//     presets).
//   - Sweeps beside other sweeps: lock.go (a flock per cell, so sweeps over one folder never train
//     a cell twice at once; orphaned temporary files; the writable check), shard.go (Options.Shard:
//     a sweep split over processes, balanced by cost), costs.go with cell_costs.json (the committed
//     cells' measured seconds, the same in every process).
//   - The validation grid search (RunTune, `reproduce tune`): tune.go (TuneSweep, the seeded
//     subset of each presets.GridFor grid, a record per configuration under
//     DIR/tune/<table>/<dataset>-<method>/<config id>.json, trained as a figure sweep's points),
//     tune_select.go (the selection by mean validation accuracy, ties to fewer trainable
//     parameters then the smaller id; the selected configuration's record copied, with the
//     tuning's summary, to DIR/<table>/<dataset>-<method>-tuned.json), table_report_selected.go
//     (the reports' validation-selected group).
//   - The reports: table_report.go (LoadReport), table_report_markdown.go (Report.Markdown: the
//     table in the paper's layout, then the claims, the notes and a folded provenance block),
//     claims.go (the paper's sentences counted on our results: each comparison and the verdict),
//     claims_markdown.go (their "Claims" section), table_claims.go (the claims of Tables 2-5), notes.go with notes/<id>.md (the
//     notes under each report, in Markdown), table_report_views.go (what notebooks print and
//     plot), provenance.go, format.go, committed_or_quick.go (committed records, or a quick sweep
//     when there are none).
//   - The figure sweeps: figure_sweep.go (what every figure shares), figure_hyper.go,
//     figure_backbones.go (its Twitch OOD panel in figure_backbones_ood.go), figure_tsne.go and
//     figure_pileup.go (with its runner, pileup_runner.go: per-run balanced accuracy, AUC and the
//     majority baseline in each record), each with its report in figure_*_report.go.
//
// A table's cells with the authors' script settings (Run) and its validation-selected cells
// (RunTune) are separate records: a report shows the validation-selected group as its headline once
// one tuned cell exists, the script settings group under it. The selected cell is the winning
// configuration's own training (the data set's full protocol and seed), not a retraining, which
// would give the same numbers.
//
// A sweep keeps going when a cell fails, then reports every failed cell (the CLI exits non-zero).
// A quick sweep (Options.Quick) is a smoke test, NOT the paper's protocol: 1 run per cell and only
// the small graphs of QuickDatasets unless data sets are named; PresetCells trains quick cells for
// QuickEpochs epochs instead of the scripts' 150-500. Quick cells are stored with quick=true and
// labelled in every report.
package tables
