package geomix

import (
	"fmt"
	"strings"
)

// Mixing is the augmentation a method applies before the backbone.
type Mixing int

const (
	// MixNone trains the backbone with plain cross-entropy on the train nodes (the baselines).
	MixNone Mixing = iota
	// MixGeoI is GeoMix-I (MixI).
	MixGeoI
	// MixGeoII is GeoMix-II (MixII).
	MixGeoII
	// MixGeoIII is GeoMix-III as the authors' code computes it (MixIII with AttentionCode).
	MixGeoIII
	// MixGeoIIIPaper is GeoMix-III as the paper writes it (MixIII with AttentionPaper).
	MixGeoIIIPaper
	// MixRandom is the "Random Mix" ablation (RandomMix).
	MixRandom
	// MixNoLocality is the "w/o Locality" ablation (NoLocality).
	MixNoLocality
	// MixNodeMixup is the node Mixup baseline of Wang et al. (WWW'21): manifold mixup of pairs of
	// train nodes inside the GraphConv backbone (GraphConv.MixupLogits), not an input mixing.
	MixNodeMixup
	// MixGraphMix is the GraphMix baseline of Verma et al. (AAAI'21): every epoch either a GCN step
	// or a manifold-mixup step of the parameter-shared FCN with sharpened pseudo-labels (graphmix.go).
	MixGraphMix
	// MixDANN is the domain-adversarial baseline (DANN with a GCN encoder, DANNGCN): cross-entropy on
	// the train nodes plus a domain classifier, behind gradient reversal, telling the graph's extra
	// test sets (the target domain) from the other nodes.
	MixDANN
)

// mixesGraph reports whether m mixes features and labels over the graph in hops (the GeoMix
// variants and their ablations), as opposed to the plain and the other baselines.
func (m Mixing) mixesGraph() bool {
	switch m {
	case MixGeoI, MixGeoII, MixGeoIII, MixGeoIIIPaper, MixRandom, MixNoLocality:
		return true
	}
	return false
}

// methods maps every method id to its mixing; plain baselines name their backbone.
var methods = map[string]Mixing{
	"gcn": MixNone, "gat": MixNone, "sgc": MixNone, "appnp": MixNone, "glognn": MixNone, "mlp": MixNone,
	"geomix1": MixGeoI, "geomix2": MixGeoII, "geomix3": MixGeoIII, "geomix3-paper": MixGeoIIIPaper,
	"randommix": MixRandom, "nolocality": MixNoLocality, "mixup": MixNodeMixup, "graphmix": MixGraphMix, "dann": MixDANN,
}

// MethodNames lists the valid method ids in a fixed order.
func MethodNames() []string {
	return []string{"gcn", "gat", "sgc", "appnp", "glognn", "mlp", "mixup", "graphmix", "dann", "geomix1", "geomix2", "geomix3", "geomix3-paper", "randommix", "nolocality"}
}

// ParseMethod returns the mixing of a method id, and the backbone the method brings: for the plain
// baselines (gcn, gat, sgc, appnp, glognn, mlp) the one they name, for mixup, graphmix and dann their
// own ("" for the GeoMix methods and ablations, whose backbone comes from ParamBackbone). The
// trainer runs "gcn" as the configured GCN flavour: gcnconv where ParamBackbone is gcnconv (the
// heterophilic presets).
func ParseMethod(name string) (mixing Mixing, backbone string, err error) {
	m, ok := methods[name]
	if !ok {
		return 0, "", fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(MethodNames(), ", "))
	}
	switch m {
	case MixNone:
		return m, name, nil
	case MixNodeMixup:
		return m, "graphconv", nil
	case MixGraphMix:
		return m, "graphmix-gcn", nil
	case MixDANN:
		return m, "dann-gcn", nil
	}
	return m, "", nil
}
