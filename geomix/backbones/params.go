package backbones

// Hyper-parameters of the backbones, read from the context with context.GetParamOr (defaults in
// brackets; see training.ParamNames for every hyper-parameter). Each backbone's own ones are
// beside it (ParamGATHeads, ParamSGCHops, ParamAPPNPHops, ParamGloGNNAlpha, ...).
const (
	// ParamBackbone is the registered backbone name (string, "gcn"): see Names.
	ParamBackbone = "backbone"
	// ParamDropout is the dropout rate after every hidden layer (float64, 0); input dropout is
	// ParamInputDropout.
	ParamDropout = "dropout"
	// ParamHidden is the hidden width (int, 64).
	ParamHidden = "hidden"
	// ParamLayers is the number of GNN layers (int, 2).
	ParamLayers = "layers"
	// ParamUseBN adds BatchNorm after every hidden layer (bool, false).
	ParamUseBN = "use_bn"
	// ParamFeatureLayout is how the input projection X W holds X: "sparse" (a Gather and a
	// ScatterSum over the non-zeros), "dense" (a matrix product) or "auto" (string, "auto": dense
	// when at least DenseFeatureDensity of X is non-zero, none of the paper's data sets). Both
	// compute the same product; only speed and memory differ.
	ParamFeatureLayout = "feature_layout"
)
