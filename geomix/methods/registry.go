package methods

import (
	"fmt"
	"strings"
)

// registry lists every method id with its constructor, in the order Names gives. A new method
// adds its line here.
var registry = []struct {
	name string
	make func() Method
}{
	{"gcn", func() Method { return &erm{backbone: "gcn"} }},
	{"gat", func() Method { return &erm{backbone: "gat"} }},
	{"sgc", func() Method { return &erm{backbone: "sgc"} }},
	{"appnp", func() Method { return &erm{backbone: "appnp"} }},
	{"glognn", func() Method { return &erm{backbone: "glognn"} }},
	{"mlp", func() Method { return &erm{backbone: "mlp"} }},
	{"mixup", func() Method { return &nodeMixup{} }},
	{"graphmix", func() Method { return &graphMix{} }},
	{"graphmixup", func() Method { return &graphMixup{} }},
	{"dann", func() Method { return &dann{} }},
	{"eerm", func() Method { return &eerm{} }},
	{"geomix1", func() Method { return &geoMix{variant: geoMixI} }},
	{"geomix2", func() Method { return &geoMix{variant: geoMixII} }},
	{"geomix3", func() Method { return &geoMix{variant: geoMixIII} }},
	{"geomix3-paper", func() Method { return &geoMix{variant: geoMixIIIPaper} }},
	{"randommix", func() Method { return &geoMix{variant: randomMix} }},
	{"nolocality", func() Method { return &geoMix{variant: noLocality} }},
}

// Names lists the valid method ids: the baselines (gcn, gat, sgc, appnp, glognn, mlp, mixup,
// graphmix, graphmixup, dann, eerm), then GeoMix-I/II/III (geomix1, geomix2, geomix3; geomix3-paper is GeoMix-III
// with the paper's attention) and the ablations (randommix, nolocality).
func Names() []string {
	names := make([]string, len(registry))
	for i, e := range registry {
		names[i] = e.name
	}
	return names
}

// New returns a new Method for the id name, or an error listing the valid ids.
func New(name string) (Method, error) {
	for _, e := range registry {
		if e.name == name {
			return e.make(), nil
		}
	}
	return nil, fmt.Errorf("unknown method %q: valid methods are %s", name, strings.Join(Names(), ", "))
}

// IsBaseline reports whether the method id name is one of the paper's baselines trained by plain
// empirical risk minimisation on its own backbone (gcn, gat, sgc, appnp, glognn, mlp), the ones
// whose presets take GeoMix-I's script row with Adam re-created every run.
func IsBaseline(name string) bool {
	m, err := New(name)
	if err != nil {
		return false
	}
	_, ok := m.(*erm)
	return ok
}
