package tables

// MethodNames maps our method ids to the names the paper prints. "erm" is the GCN trained with plain
// cross-entropy of the OOD tables (empirical risk minimisation, the paper's Section 4.2).
var MethodNames = map[string]string{
	"mlp": "MLP", "gcn": "GCN", "gat": "GAT", "sgc": "SGC", "appnp": "APPNP", "glognn": "GloGNN",
	"erm": "ERM", "eerm": "EERM", "dann": "DANN",
	"mixup": "Mixup", "graphmixup": "GraphMixup", "graphmix": "GraphMix",
	"geomix1": "GeoMix-I", "geomix2": "GeoMix-II", "geomix3": "GeoMix-III",
	"randommix": "Random Mix", "nolocality": "w/o Locality",
}

// DatasetNames maps our dataset (column) ids to the names the paper prints. Table 3's columns are
// the three OOD test graphs of twitch-ood (PyG names FR, PT, RU; MUSAE names FR, PTBR, RU). Table 4's
// columns are a data set with a training-label count per class, written "<dataset>-<count>", and
// our offline image stand-in (fmnist, fmnist-20: Fashion-MNIST pixels, which the paper does not print).
var DatasetNames = map[string]string{
	"cora": "Cora", "citeseer": "CiteSeer", "pubmed": "PubMed", "cs": "CS", "physics": "Physics",
	"squirrel": "Squirrel", "chameleon": "Chameleon",
	"twitch-fr": "Twitch-FR", "twitch-ptbr": "Twitch-PT", "twitch-ru": "Twitch-RU",
	"stl10-10": "STL10 (10 per class)", "stl10-20": "STL10 (20 per class)",
	"cifar10-10": "CIFAR10 (10 per class)", "cifar10-20": "CIFAR10 (20 per class)",
	"20news-100": "20News (100 per class)", "20news-200": "20News (200 per class)",
	"fmnist":    "Fashion-MNIST stand-in (10 per class)",
	"fmnist-20": "Fashion-MNIST stand-in (20 per class)",
}

// BackboneNames are the backbones' printed names.
var BackboneNames = map[string]string{"gat": "GAT", "appnp": "APPNP", "sgc": "SGC", "gcn": "GCN", "mlp": "MLP", "gcnconv": "GCN (PyG GCNConv)"}
