package datasets

import (
	"fmt"
	"strings"
)

// twitchFeatureNote says how our Twitch features differ from the ones the GeoMix code used.
const twitchFeatureNote = "Features are MUSAE's 3170-d binary game features (as LINKX/EERM use); the GeoMix " +
	"code used PyG's 128-d Twitch embeddings (graphmining.ai npz), which are no longer obtainable."

// twitchRegion is one loaded MUSAE region, before any split.
type twitchRegion struct {
	graph *Graph
	// quirks describe the raw-data problems found (also in graph.Notes, after twitchFeatureNote).
	quirks []string
}

// loadTwitchRegion reads the three raw files of region (e.g. "FR") into a Graph without splits:
// labels = mature, binary 3170-d features row-normalised unless opts.RawFeatures, edges made
// symmetric. Raw-data quirks (duplicated target rows, users without features) go to Graph.Notes.
func loadTwitchRegion(opts Options, region string) (*twitchRegion, error) {
	paths := map[string]string{}
	for _, kind := range []string{"target.csv", "features.json", "edges.csv"} {
		path, err := opts.fetch(twitchFile(region, kind))
		if err != nil {
			return nil, err
		}
		paths[kind] = path
	}
	targets, err := parseTwitchTargets(paths["target.csv"])
	if err != nil {
		return nil, err
	}
	n := len(targets.labels)
	features, missing, err := parseTwitchFeatures(paths["features.json"], n)
	if err != nil {
		return nil, err
	}
	src, dst, err := parseTwitchEdges(paths["edges.csv"], n)
	if err != nil {
		return nil, err
	}
	if !opts.RawFeatures {
		features.NormalizeRows()
	}
	var quirks []string
	if len(targets.duplicates) > 0 {
		quirks = append(quirks, fmt.Sprintf("musae_%s_target.csv has %d rows for %d users: new_id %s repeated "+
			"(the rows agree on user id and label), first row kept (PyG's Twitch graph likely kept each row as a node).",
			region, n+len(targets.duplicates), n, formatNodeIDs(targets.duplicates)))
	}
	if len(missing) > 0 {
		quirks = append(quirks, fmt.Sprintf("musae_%s_features.json has no entry for %d user(s) (new_id %s): all-zero feature rows.",
			region, len(missing), formatNodeIDs(missing)))
	}
	g := &Graph{
		Name:       "twitch-" + strings.ToLower(region),
		NumNodes:   n,
		Features:   features,
		Src:        src,
		Dst:        dst,
		Labels:     targets.labels,
		NumClasses: 2,
		Notes:      strings.Join(append([]string{twitchFeatureNote}, quirks...), " "),
	}
	return &twitchRegion{graph: g, quirks: quirks}, nil
}

// loadTwitch is the loader of one region as a stand-alone data set, with one seeded random split of
// 50% train, 25% validation, 25% test (the proportions of the GeoMix Twitch protocol; the reference
// has no single-region split of its own).
func loadTwitch(region string) func(opts Options) (*Graph, error) {
	return func(opts Options) (*Graph, error) {
		r, err := loadTwitchRegion(opts, region)
		if err != nil {
			return nil, err
		}
		nodes := make([]int32, r.graph.NumNodes)
		for i := range nodes {
			nodes[i] = int32(i)
		}
		r.graph.Splits = []Split{randomSplit(nodes, 0.5, 0.25, newSplitRNG(opts.seedOr(referenceSeed)))}
		r.graph.Notes += " Split: one seeded random 50/25/25 split of this region (our choice)."
		return r.graph, nil
	}
}

// formatNodeIDs formats ids as "1, 2, 3".
func formatNodeIDs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}

func init() {
	for _, region := range twitchRegions {
		register("twitch-"+strings.ToLower(region), loadTwitch(region))
	}
}
