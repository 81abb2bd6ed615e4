// Package pileup is the data of the GeoMix paper's Pileup Mitigation experiment (KDD'24, section
// "OOD Generalization in High Energy Physics"): particle-flow candidates of LHC events, each a node
// of a ΔR < 0.4 graph, labelled leading vertex (LV, 1) or pileup (PU, 0); the task is to label the
// neutral particles, under shifts of the pileup level (PU10 ↔ PU30, PU30 ↔ PU50) and of the process
// (gg ↔ qq at PU30).
//
// It has four parts:
//   - ReadEvents streams the PF branches of a Delphes ROOT file (tree "Delphes"; the Zenodo 8015774
//     files test_{gg,qq}_PU{10,30,50,140}.root used by StruRW and GeoMix) with go-hep's groot.
//   - Simulate writes files of the same layout from a calibrated event simulator (Poisson pileup
//     vertices of soft particles with minijets; gg or Z(νν)+jets hard scatters with an underlying
//     event), deterministic from a seed, for use offline. Per-sample LV and pileup multiplicities come
//     from the StruRW README's statistics (Published), shared shape parameters (simulate.go) were tuned
//     against its edge counts; TestCalibration keeps nodes, edges and the LV/PU ratio within 5% of it.
//   - BuildEvent makes an event's graph as the authors' code does (src/pileup/prep_data.py, from
//     StruRW's Utils/pre_data/prepare_pileup.py): |η| < 2.5 and pT > 0.5 cuts, ΔR edges with its φ
//     wrap (searched on an (η, φ) grid, not a dense N × N matrix), 28 features (per-event integer
//     Fourier frequencies of η and pT, |PdgID| one-hot, charge label one-hot), the event skips.
//   - Build assembles one shift for a trainer: source then target events as one block-diagonal
//     datasets.Graph with the released code's split (or the paper's wording, PaperSplit), and the
//     metrics Accuracy, BalancedAccuracy, AUC and MajorityAccuracy score it.
//
// Data.Sample picks each file: in Auto mode the Zenodo file under <data root>/pileup/ when present,
// else the simulator's, generated into DefaultCache() on first use. Sample.Simulated and the graph's
// Notes say which; a simulated file carries a SimulatorKey note, so it is recognised wherever it lies.
//
// Usage:
//
//	shift, _ := pileup.ShiftByName("gg-pu10-pu30")
//	x, err := pileup.Build(shift, pileup.Options{Seed: 1})
//	// train on x.Graph.Splits[0].Train (source events; batches: pileup.Merge(name, x.Source[k:k+5]),
//	// x.Labelled[k]), select on Val, then with predictions pred [N] and P(LV) scores [N]:
//	test := x.Graph.Splits[0].Test
//	acc := pileup.Accuracy(pred, x.Graph.Labels, test)
//	auc := pileup.AUC(scores, x.Graph.Labels, test)
//	base := pileup.MajorityAccuracy(x.Graph.Labels, test)
//
// From the command line: `go run ./reproduce pileup-simulate --out DIR` writes the eight simulated
// files under DIR/pileup/, `go run ./reproduce pileup-calibration` writes
// results/pileup-calibration.md, and `go run ./reproduce datasets --data DIR` lists the Pileup files
// present with their per-event statistics.
package pileup
