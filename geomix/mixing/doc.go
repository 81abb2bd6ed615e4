// Package mixing is GeoMix's method proper, readable beside the paper (Zhao et al., KDD'24,
// Section 3): the normalised adjacency Â (Adjacency, BuildAdjacency, with the normalisations of
// the authors' code and the paper's Sec. 3.1) and its propagation, and the mixing operators that
// act on any node matrix [N, D] (projected features or label distributions [N, C]):
//
//   - MixI, GeoMix-I (Eq. 4-5): hops times h ← α h + (1−α) Â h;
//   - MixII, GeoMix-II (Eq. 6-7): hops times h ← (1−α) Â h + α h⁽⁰⁾;
//   - MixIII, GeoMix-III (Eq. 8-9): attention over the neighbourhood (AttentionWeights, Attend) in
//     the form of the authors' code (AttentionCode, the default) or of the paper (AttentionPaper);
//   - the ablations of Table 5: RandomMix (mixing over a randomly relabelled graph) and NoLocality
//     (GeoMix-I with α = 0).
//
// Every operator builds GoMLX graph nodes and panics with the shapes on misuse. For a fixed graph
// they are linear in their input, so mixing then projecting equals projecting then mixing: package
// methods mixes in the small projected width.
//
//	adj := mixing.NewAdjacencyNodes(n, src, dst, weight) // from BuildAdjacency(g, NormSymmetric).Inputs()
//	mixed := mixing.MixI(adj, x, 0.1, 3)                 // x [N, D] → [N, D]
package mixing
