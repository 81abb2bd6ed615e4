// Package backbones holds the GNNs GeoMix and the baselines train, each a Backbone whose first
// operation is linear in the node features (logits = Rest(X W_in)), registered by name (Names,
// ByName): "gcn" (the authors' GCN), "gcnconv" (PyG's GCNConv, their heterophilic code), "gat",
// "sgc", "appnp", "mlp", "glognn", and the baselines' own "graphconv" (node Mixup), "graphmix-gcn"
// (GraphMix) and "dann-gcn" (DANN). Features holds X [N, F] sparse or dense inside a graph and
// projects it (ProjectBlocks); BatchNorm and the initialisers match PyTorch's.
//
// Backbones read their hyper-parameters (ParamHidden, ParamLayers, ParamDropout, ParamUseBN and
// their own) from the context and create their variables under it:
//
//	b, _ := backbones.ByName("gcn")
//	logits := b.Rest(ctx, adj, xw, backbones.Dims{Features: f, Classes: c}) // xw [N, H0] → [N, C]
package backbones
