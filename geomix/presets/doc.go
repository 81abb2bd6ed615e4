// Package presets holds, as data, the hyper-parameters of the authors' run scripts for every data
// set and GeoMix variant (src/main_exp/exp/aug_gcn.sh, nograph.sh, src/hetero/exp/aug_gcn.sh,
// src/twitch/exp/aug_gcn.sh, and src/pileup/exp/trans.sh per Pileup shift as "pileup-<shift>"), and
// the baselines' settings from their own public code (For, Apply).
// Load merges a preset with the caller's overrides and loads the data set as the preset wants it.
// GridFor holds, as data, the validation grid of every method from the paper's appendix
// ("Additional Experimental Details"), which `reproduce tune` searches.
//
//	p, err := presets.For("cora", "geomix1") // p.Params: lr 0.1, hidden 16, hops 3, alpha 0.1, ...
//	g, err := presets.GridFor("gcn")         // g.Size() = 240, g.Config(0): lr 0.001, dropout 0, ...
package presets
