package datasets

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/nlpodyssey/gopickle/types"
)

// planetoidURL is where PyG's Planetoid (and so the reference code) downloads the raw files.
const planetoidURL = "https://github.com/kimiyoung/planetoid/raw/master/data/"

// planetoidFiles holds size and sha256 of every raw Planetoid file (kimiyoung/planetoid@af6abf4,
// see docs/data.md), keyed by "<name>.<suffix>".
var planetoidFiles = map[string]struct {
	size   int64
	sha256 string
}{
	"cora.x":              {22119, "23cfa55d91c6f624233f5eb7b6e3f141f1bd2b2ae39608a63cf5d084bb27baab"},
	"cora.y":              {4054, "94465c14eb53e04ca262198dcbb2521ee8af60fb3f3d546cd6ca24a511b0e7d1"},
	"cora.tx":             {148025, "b9afbaa4a400df991f6f02ef677e1e44da55ffc04801fd02f9e673987829226a"},
	"cora.ty":             {28135, "41f5ac76596a1699cc33f53084a2419e92961c42bb75f36fc38e616d348532ad"},
	"cora.allx":           {257305, "9419ba2f26f5c35243db64aba110e0f35a04851609e0dc5433450676ca6b8543"},
	"cora.ally":           {47959, "2b998f5cc7fedc86e7f97ca2498f47a1ffc1462c29e2d578b23bf3f62b6e7d71"},
	"cora.graph":          {59847, "58f13302f39dde8852dad6fe6d15b89b077b6d7f837626bce671ef80344b383d"},
	"cora.test.index":     {5000, "297ce89af2b51a6a194181c7dbe1796c6a1cf9cd9349a88383b1b1e227867875"},
	"citeseer.x":          {31087, "d20de19150741e555de0ed037195630fc194114ebc7fd72ced62810148aa22f6"},
	"citeseer.y":          {3014, "8ba87e515d8e3ee3cf52f6d2c5b86aa73f11ecad825a808455209ec26cd54924"},
	"citeseer.tx":         {260321, "539a8906a2da97628d212f2fdd668c109a8b3f0d36574b59e5d3fd5b5303da21"},
	"citeseer.ty":         {24135, "55e5bd1ba1e733a04598753ad1a8d57957f4b8f89e74519f41f4f4938767e4ce"},
	"citeseer.allx":       {595021, "2ac30345d95c9ec933a817ee0bdd6a5f077f8c184a20e696910192d534414668"},
	"citeseer.ally":       {55623, "f704b2d986dde6c2669934de1f3ae5696a6cf9455c0f6b2646a2d135ea0a1c95"},
	"citeseer.graph":      {61987, "d79a4ef9d3e7169aee8946145f6b7306e35bc79bffad26346cfb94e10e9912a7"},
	"citeseer.test.index": {5000, "2af990671580b6b2df5d158d1038f8292e30c9cd821b5453f399659b25b723d4"},
	"pubmed.x":            {23172, "fbe9cb5c47200d1b7769a26e579be3b7130b556831f9d850e77c4c74f2599b33"},
	"pubmed.y":            {854, "e6c807633307a07ed659249006536a147c7999c797f11a2560752990181b41b3"},
	"pubmed.tx":           {405505, "4eb5f5d0f30f26497eb0ac6ac9719d09c67e284f1ed0385c93f3ef27a671da3d"},
	"pubmed.ty":           {12135, "ee2e0d4819d9fbcc403689c3bf2e49face401b605932f093bc58ab6461130fdd"},
	"pubmed.allx":         {7578385, "508e538e2abdccdd54c4d3e9f49d638b4af7107d85845f66ddea5a5152658b7e"},
	"pubmed.ally":         {224739, "0c37bbe3b5014ec365e9d393cf4791925e5ed94fb194305d74f064a8d7b50f0e"},
	"pubmed.graph":        {471808, "5b89f0036ca22909471f1e6558eb42fa06e0c730a577bde5b058b40638f81dc9"},
	"pubmed.test.index":   {6000, "b101d421688bbaecbd82e8a18f1e282378d6830f3a37666f28ebc47f844341b5"},
}

// planetoidValSize is the size of the public validation set (nodes len(y) .. len(y)+499).
const planetoidValSize = 500

func init() {
	for _, name := range []string{"cora", "citeseer", "pubmed"} {
		register(name, func(opts Options) (*Graph, error) { return loadPlanetoid(name, opts) })
	}
}

// planetoidSpec is the fileSpec of ind.<name>.<suffix>.
func planetoidSpec(name, suffix string) fileSpec {
	f := planetoidFiles[name+"."+suffix]
	file := "ind." + name + "." + suffix
	return fileSpec{Path: "planetoid/" + file, URL: planetoidURL + file, SHA256: f.sha256, Size: f.size}
}

// loadPlanetoid reads Cora, CiteSeer or PubMed from the Planetoid ind.* files exactly as PyG 2.0.3's
// read_planetoid_data (which the reference code uses): node i < len(allx) has row i of allx/ally, node
// test.index[j] has row j of tx/ty, ids missing from the test range (15 isolated CiteSeer nodes) get an
// all-zero feature row and label 0 (argmax of a zero row); labels are the argmax of the one-hot rows.
// Edges come from the graph dict, symmetrised, without duplicates and self-loops. The single public
// split: train = nodes [0, len(y)), val = the next 500, test = the sorted test.index. Features are
// row-normalised (x / max(rowsum, 1)) unless opts.RawFeatures. ind.<name>.x (the train rows, which
// allx repeats) is only checked for its shape. (The paper says 1,000 validation and
// 500 test nodes; the code uses these PyG masks.)
func loadPlanetoid(name string, opts Options) (*Graph, error) {
	paths := map[string]string{}
	for _, suffix := range planetoidSuffixes {
		p, err := opts.fetch(planetoidSpec(name, suffix))
		if err != nil {
			return nil, err
		}
		paths[suffix] = p
	}
	return readPlanetoid(name, paths, opts)
}

// planetoidSuffixes are the raw files of one Planetoid data set, ind.<name>.<suffix>.
var planetoidSuffixes = []string{"x", "y", "tx", "ty", "allx", "ally", "graph", "test.index"}

// readPlanetoid is loadPlanetoid on the files at paths, keyed by suffix (see planetoidSuffixes).
func readPlanetoid(name string, paths map[string]string, opts Options) (*Graph, error) {
	allx, err := loadPickledCSR(paths["allx"])
	if err != nil {
		return nil, err
	}
	tx, err := loadPickledCSR(paths["tx"])
	if err != nil {
		return nil, err
	}
	if tx.NumCols != allx.NumCols {
		return nil, fmt.Errorf("datasets: %s has %d columns, expected %d like %s", paths["tx"], tx.NumCols, allx.NumCols, paths["allx"])
	}
	ally, numClasses, err := loadOneHot(paths["ally"], allx.NumRows, -1)
	if err != nil {
		return nil, err
	}
	ty, _, err := loadOneHot(paths["ty"], tx.NumRows, numClasses)
	if err != nil {
		return nil, err
	}
	y, _, err := loadOneHot(paths["y"], -1, numClasses)
	if err != nil {
		return nil, err
	}
	numTrain := len(y)
	x, err := loadPickledCSR(paths["x"])
	if err != nil {
		return nil, err
	}
	if x.NumRows != numTrain || x.NumCols != allx.NumCols {
		return nil, fmt.Errorf("datasets: %s is [%d, %d], expected [%d, %d] (one row per ind.%s.y row)",
			paths["x"], x.NumRows, x.NumCols, numTrain, allx.NumCols, name)
	}
	testIndex, err := readTestIndex(paths["test.index"], tx.NumRows, allx.NumRows)
	if err != nil {
		return nil, err
	}
	numNodes := int(slices.Max(testIndex)) + 1
	if numNodes < allx.NumRows+tx.NumRows || numTrain+planetoidValSize > allx.NumRows {
		return nil, fmt.Errorf("datasets: %s: inconsistent sizes: %d allx rows, %d tx rows, %d train nodes, largest test id %d",
			name, allx.NumRows, tx.NumRows, numTrain, numNodes-1)
	}

	// source[v] = (matrix, row) of node v's features/labels; nil matrix = zero row, label 0.
	type source struct {
		x   *CSR
		y   []int32
		row int
	}
	sources := make([]source, numNodes)
	for i := 0; i < allx.NumRows; i++ {
		sources[i] = source{allx, ally, i}
	}
	for j, v := range testIndex {
		sources[v] = source{tx, ty, j}
	}
	g := &Graph{Name: name, NumNodes: numNodes, NumClasses: numClasses, Labels: make([]int32, numNodes)}
	g.Features = &CSR{NumRows: numNodes, NumCols: allx.NumCols, RowPtr: make([]int64, numNodes+1)}
	padded := 0
	for v, s := range sources {
		if s.x == nil {
			padded++
		} else {
			lo, hi := s.x.RowPtr[s.row], s.x.RowPtr[s.row+1]
			g.Features.ColIdx = append(g.Features.ColIdx, s.x.ColIdx[lo:hi]...)
			g.Features.Values = append(g.Features.Values, s.x.Values[lo:hi]...)
			g.Labels[v] = s.y[s.row]
		}
		g.Features.RowPtr[v+1] = int64(len(g.Features.ColIdx))
	}
	if !opts.RawFeatures {
		g.Features.NormalizeRows()
	}
	if g.Src, g.Dst, err = readPlanetoidGraph(paths["graph"], numNodes); err != nil {
		return nil, err
	}
	split := Split{Train: iota32(0, numTrain), Val: iota32(numTrain, numTrain+planetoidValSize), Test: slices.Clone(testIndex)}
	slices.Sort(split.Test)
	g.Splits = []Split{split}
	if padded > 0 {
		g.Notes = fmt.Sprintf("%d node ids in the test range are absent from ind.%s.test.index (isolated nodes); "+
			"as in PyG they have all-zero features and label 0 and belong to no split.", padded, name)
	}
	return g, nil
}

// loadPickledCSR unpickles a scipy csr_matrix file.
func loadPickledCSR(path string) (*CSR, error) {
	v, err := unpickle(path)
	if err != nil {
		return nil, err
	}
	m, ok := v.(*pickledCSR)
	if !ok {
		return nil, fmt.Errorf("datasets: %s holds a %T, expected a scipy csr_matrix", path, v)
	}
	csr, err := m.toCSR()
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return csr, nil
}

// loadOneHot unpickles a one-hot label matrix of shape [rows, cols] (-1 = any) and returns the
// argmax of every row (the first maximum, so an all-zero row has label 0) and cols.
func loadOneHot(path string, rows, cols int) ([]int32, int, error) {
	v, err := unpickle(path)
	if err != nil {
		return nil, 0, err
	}
	a, ok := v.(*ndarray)
	if !ok {
		return nil, 0, fmt.Errorf("datasets: %s holds a %T, expected a numpy array", path, v)
	}
	if err := a.checkShape(rows, cols); err != nil {
		return nil, 0, fmt.Errorf("datasets: %s: %w", path, err)
	}
	vals, err := a.int64s()
	if err != nil {
		return nil, 0, fmt.Errorf("datasets: %s: %w", path, err)
	}
	labels := make([]int32, a.Shape[0])
	for i := range labels {
		best := 0
		for j := 1; j < a.Shape[1]; j++ {
			if vals[a.rowMajorIndex(i, j)] > vals[a.rowMajorIndex(i, best)] {
				best = j
			}
		}
		labels[i] = int32(best)
	}
	return labels, a.Shape[1], nil
}

// readTestIndex reads ind.<name>.test.index: want distinct ids, one per line, all >= minID.
func readTestIndex(path string, want, minID int) ([]int32, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer func() { _ = file.Close() }()
	var ids []int32
	seen := map[int]bool{}
	sc := bufio.NewScanner(file)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		id, err := strconv.Atoi(text)
		if err != nil || id < minID || id >= 1<<31-1 || seen[id] {
			return nil, fmt.Errorf("datasets: %s line %d: %q, expected a new node id >= %d", path, line, text, minID)
		}
		seen[id] = true
		ids = append(ids, int32(id))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("datasets: reading %s: %w", path, err)
	}
	if len(ids) != want {
		return nil, fmt.Errorf("datasets: %s has %d test ids, expected %d (one per tx row)", path, len(ids), want)
	}
	return ids, nil
}

// readPlanetoidGraph unpickles the adjacency dict {node: [neighbours]} into undirected edges.
func readPlanetoidGraph(path string, numNodes int) (src, dst []int32, err error) {
	v, err := unpickle(path)
	if err != nil {
		return nil, nil, err
	}
	dict, ok := v.(*types.Dict)
	if !ok {
		return nil, nil, fmt.Errorf("datasets: %s holds a %T, expected a dict of adjacency lists", path, v)
	}
	for _, e := range *dict {
		from, ok := e.Key.(int)
		list, okList := e.Value.(*types.List)
		if !ok || !okList {
			return nil, nil, fmt.Errorf("datasets: %s: entry %v: %v, expected int: list of ints", path, e.Key, e.Value)
		}
		for _, n := range *list {
			to, ok := n.(int)
			if !ok || from < 0 || to < 0 || from >= numNodes || to >= numNodes {
				return nil, nil, fmt.Errorf("datasets: %s: edge %v->%v, expected node ids in [0, %d)", path, from, n, numNodes)
			}
			src, dst = append(src, int32(from)), append(dst, int32(to))
		}
	}
	src, dst, err = UndirectedEdges(numNodes, src, dst)
	if err != nil {
		return nil, nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return src, dst, nil
}

// iota32 returns lo, lo+1, ..., hi-1.
func iota32(lo, hi int) []int32 {
	out := make([]int32, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, int32(i))
	}
	return out
}
