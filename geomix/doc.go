// Package geomix is the entry point of GeoMix-Go: Geometric Mixup (GeoMix, Zhao, Wu, Yang, Yan,
// KDD'24) and the paper's baselines on GoMLX, trained with the authors' protocol.
//
// What a user calls is here: NewBackend, TrainPreset (a data set by name with the authors' script
// settings) or Train (any *datasets.Graph with the hyper-parameters in a context), their Result,
// PresetFor, ParamNames and Mix (one mixing step on host data, for teaching). The method's pieces
// live in subpackages, each readable on its own:
//
//   - mixing: the normalised adjacency and the mixing operators GeoMix-I/II/III, the attention
//     and the ablations, next to the paper's equations;
//   - backbones: the GNNs (GCN, GCNConv, GAT, SGC, APPNP, MLP, GloGNN and the baselines' own);
//   - methods: the training objectives, one file per method behind the Method interface;
//   - training: the loop, Adam, best-validation selection and checkpoints;
//   - presets: the authors' per-data-set script settings, as data.
//
// Where the released code and the paper differ, the code is the default and the paper's variant an
// option (e.g. geomix3-paper for the paper's attention); docs/fidelity.md lists the differences.
//
// A minimal use:
//
//	backend, _ := geomix.NewBackend()
//	res, err := geomix.TrainPreset(context.New(), backend, "cora", "geomix1", datasets.Options{})
//	fmt.Printf("%.2f ± %.2f\n", res.TestAccMean, res.TestAccStd)
package geomix
