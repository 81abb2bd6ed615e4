package methods

// Hyper-parameters of the methods, read from the context with context.GetParamOr (defaults in
// brackets, the reference's argparse defaults; see training.ParamNames for every hyper-parameter).
const (
	// ParamHops is K, the number of mixing steps (int, 1).
	ParamHops = "hops"
	// ParamAlpha is α of GeoMix-I/II and RandomMix (float64, 0).
	ParamAlpha = "alpha"
	// ParamResWeight is GeoMix-III's residual to the previous hop: β in the code, α in the paper's
	// Eq. 9 (float64, 0.5).
	ParamResWeight = "res_weight"
	// ParamGraphWeight is GeoMix-III's η, the weight of the graph branch (float64, 0.8).
	ParamGraphWeight = "graph_weight"
	// ParamAttnDim is GeoMix-III's projection width F' of W_q and W_k (int, 16).
	ParamAttnDim = "attn_dim"
	// ParamUseWeight gives GeoMix-III per-hop W_q, W_k (bool, true). The code's alternative q = k = h
	// needs attention in the input width F and is not supported: every preset uses weights.
	ParamUseWeight = "use_weight"
	// ParamTrainAttention trains W_q, W_k through the loss, as the authors' main_exp and twitch code
	// do (bool, true); false freezes them at their initialisation, as their hetero code does.
	ParamTrainAttention = "train_attention"
	// ParamLabelGrad back-propagates through the pseudo-labels (bool, false).
	ParamLabelGrad = "label_grad"
	// ParamAugLambda is λ, the weight of the soft cross-entropy on non-train nodes (float64, 1).
	ParamAugLambda = "aug_lambda"
	// ParamInputDropout drops every non-zero input feature with this probability in training mode,
	// before the input projection (float64, 0; GraphMix's 0.5). The authors' GCN has none.
	ParamInputDropout = "input_dropout"
	// ParamMixupBeta is a in node Mixup's λ ~ Beta(a, a), drawn every epoch (int, 4 as in Wang et
	// al.'s code).
	ParamMixupBeta = "mixup_beta"
	// ParamGraphMixGamma is γ, the weight GraphMix's unsupervised mixup loss ramps up to (float64,
	// 1; its scripts: 10 on Cora and CiteSeer, 1 on PubMed).
	ParamGraphMixGamma = "graphmix_gamma"
	// ParamDANNReversal caps DANN's gradient reversal coefficient min((t+1)/E, cap) (float64, 0.2,
	// StruRW's alphamin).
	ParamDANNReversal = "dann_reversal"
	// ParamEERMEnvironments is EERM's K, the number of graph editors, i.e. of generated
	// environments per update (int, 3).
	ParamEERMEnvironments = "eerm_k"
	// ParamEERMSamples is EERM's num_sample s, the edges each editor flips into every node (int, 5).
	ParamEERMSamples = "eerm_samples"
	// ParamEERMBeta is EERM's β, the weight of the mean risk in Var + β_t Mean; β_t ramps from β to
	// 10β over the run as in its Twitch code (float64, 1; its Twitch command: 3).
	ParamEERMBeta = "eerm_beta"
	// ParamEERMEditorLR is EERM's lr_a, the editors' Adam learning rate (float64, 0.005; its Twitch
	// command: 1e-3).
	ParamEERMEditorLR = "eerm_lr_a"
	// ParamEERMCandidates is how many candidate sources each node's editor row holds, drawn once per
	// training among the training-domain nodes (int, 64); EERM's code holds all n (see eerm.go).
	ParamEERMCandidates = "eerm_candidates"
)
