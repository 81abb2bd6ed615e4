package scalebench

import (
	"fmt"
	"time"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/geomix-go/geomix/internal/epochcost"
	"github.com/geomix-go/geomix/internal/stats"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// The graphs' shape: ogbn-products' mean degree (about 50) and the presets' model on 100 dense
// features and 10 classes.
const (
	// Degree is the mean degree of every graph.
	Degree = 50
	// Features is the number of dense features F.
	Features = 100
	// Classes is C.
	Classes = 10
	// Homophily is the probability P that a neighbour shares the node's class.
	Homophily = 0.6
	// Hidden is the GCN's width and Layers its depth.
	Hidden, Layers = 64, 2
	// PresetDataset names the presets every method trains with (the largest graph of the paper's
	// Table 2: GeoMix-I/II with one hop, label gradients; its hidden width and depth are Hidden and
	// Layers).
	PresetDataset = "physics"
)

// Point is one measured (graph size, method).
type Point struct {
	// Nodes is N; Edges the directed edges (both directions of every undirected one).
	Nodes int `json:"nodes"`
	Edges int `json:"edges"`
	// Method is the geomix method id.
	Method string `json:"method"`
	// MillisPerEpoch is the median of Millis, the timed epochs (evaluation, then update) in ms.
	MillisPerEpoch float64   `json:"ms_per_epoch"`
	Millis         []float64 `json:"ms_epochs"`
	// GenerateSeconds is the graph's generation; SetupSeconds building the trainer, compiling and
	// the untimed warm-up epoch.
	GenerateSeconds float64 `json:"generate_seconds"`
	SetupSeconds    float64 `json:"setup_seconds"`
	// PeakRSSMiB is the process's peak resident memory (generation included), measured by the
	// parent from the child process's resource usage; 0 where the platform does not report it.
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	// CPUMillisPerEpoch is the process's CPU time (user and system, all threads) over the timed
	// epochs, per epoch: on a machine shared with other jobs it varies less than wall time.
	CPUMillisPerEpoch float64 `json:"cpu_ms_per_epoch"`
	// PeakHeapMiB is the largest Go heap (objects, live or not yet collected) sampled every
	// millisecond over the warm-up and timed epochs.
	PeakHeapMiB float64 `json:"peak_heap_mib"`
}

// Graph generates the point graph of n nodes (a multiple of Classes) from seed.
func Graph(n int, seed uint64) (*datasets.Graph, error) {
	g, _, err := datasets.SyntheticScale(datasets.SyntheticConfig{Nodes: n, Classes: Classes, Features: Features,
		Degree: Degree, P: Homophily, Seed: seed})
	return g, err
}

// RunPoint generates the graph of n nodes from seed and times epochs full-batch training epochs of
// method on it after one untimed warm-up epoch, with the presets of PresetDataset and the model of
// Hidden and Layers, on backend (see NewBackend).
func RunPoint(backend backends.Backend, n int, method string, epochs int, seed uint64) (*Point, error) {
	if epochs < 1 {
		return nil, fmt.Errorf("timing %d epochs: want at least 1", epochs)
	}
	start := time.Now()
	g, err := Graph(n, seed)
	if err != nil {
		return nil, err
	}
	p := &Point{Nodes: n, Edges: g.NumEdges(), Method: method, GenerateSeconds: time.Since(start).Seconds()}
	ctx := context.New()
	if _, err := presets.Apply(ctx, PresetDataset, method); err != nil {
		return nil, err
	}
	ctx.SetParam(backbones.ParamHidden, Hidden)
	ctx.SetParam(backbones.ParamLayers, Layers)
	start = time.Now()
	s, err := training.NewStepper(ctx, backend, g, method)
	if err != nil {
		return nil, err
	}
	// The trainer holds X, Xᵀ and the normalised adjacency from here on; the generator's CSR copy
	// of the features and its edge list (8 bytes per feature entry, 8 per directed edge) are
	// dropped, as a program holding its data in one place would.
	g.Features.ColIdx, g.Features.Values, g.Src, g.Dst = nil, nil, nil, nil
	g = nil
	peakHeap := epochcost.SamplePeakHeap()
	if err := s.Step(0); err != nil {
		peakHeap()
		return nil, err
	}
	p.SetupSeconds = time.Since(start).Seconds()
	cpu := processCPUMillis()
	for epoch := 1; epoch <= epochs; epoch++ {
		start := time.Now()
		if err := s.Step(epoch); err != nil {
			peakHeap()
			return nil, err
		}
		p.Millis = append(p.Millis, float64(time.Since(start).Microseconds())/1000)
	}
	p.CPUMillisPerEpoch = (processCPUMillis() - cpu) / float64(epochs)
	p.MillisPerEpoch = stats.Median(p.Millis)
	p.PeakHeapMiB = float64(peakHeap()) / (1 << 20)
	return p, nil
}
