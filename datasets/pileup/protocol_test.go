package pileup

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// simData is a Data that simulates into a test's temporary cache.
func simData(t testing.TB) Data {
	return Data{Root: t.TempDir(), Cache: t.TempDir(), Mode: Simulated, SimEvents: 30}
}

// TestBuildProtocol checks the released code's split on the PU10 → PU30 shift: sizes, members,
// offsets and the block-diagonal graph.
func TestBuildProtocol(t *testing.T) {
	shift, err := ShiftByName("gg-pu10-pu30")
	if err != nil {
		t.Fatal(err)
	}
	data := simData(t)
	x, err := Build(shift, Options{Seed: 3, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	g := x.Graph
	if len(x.Source) != 10 || len(x.Target) != 20 {
		t.Fatalf("kept %d source and %d target events, want 10 and 20 (gg skips almost none)", len(x.Source), len(x.Target))
	}
	if g.NumNodes != int(x.Offsets[30]) || g.NumFeatures() != NumFeatures || g.NumClasses != 2 || len(g.Splits) != 1 {
		t.Fatalf("graph %v, offsets end %d", g, x.Offsets[30])
	}
	if !x.SourceSample.Simulated || !strings.Contains(g.Notes, "simulator") {
		t.Errorf("notes do not say the data are simulated: %q", g.Notes)
	}
	// Edges sorted by (src, dst), inside one event each.
	for e := range g.Src {
		if e > 0 && (g.Src[e] < g.Src[e-1] || g.Src[e] == g.Src[e-1] && g.Dst[e] <= g.Dst[e-1]) {
			t.Fatalf("edge %d not sorted", e)
		}
		k, _ := slices.BinarySearch(x.Offsets, g.Src[e]+1)
		if g.Dst[e] < x.Offsets[k-1] || g.Dst[e] >= x.Offsets[k] {
			t.Fatalf("edge %d -> %d crosses events", g.Src[e], g.Dst[e])
		}
	}
	s := g.Splits[0]
	neutral := func(events []*EventGraph, first int) []int32 {
		var out []int32
		for k, ev := range events {
			for _, i := range ev.Neutral {
				out = append(out, x.Offsets[first+k]+i)
			}
		}
		return out
	}
	if !slices.Equal(s.Val, neutral(x.Target[:4], 10)) || !slices.Equal(s.Test, neutral(x.Target[4:], 14)) {
		t.Errorf("val/test are not the neutrals of target events 0-3 / 4-19")
	}
	if !slices.Equal(x.SourceNeutrals, neutral(x.Source, 0)) {
		t.Error("SourceNeutrals are not the source events' neutrals")
	}
	train := 0
	for k, ev := range x.Source {
		lv, pu := 0, 0
		for _, i := range ev.Neutral {
			if ev.Labels[i] == LabelLV {
				lv++
			} else {
				pu++
			}
		}
		want := int(0.2 * float64(lv))
		gotLV, gotPU := 0, 0
		for _, i := range x.Labelled[k] {
			if ev.Particles.Charge[i] != 0 {
				t.Fatalf("event %d: labelled node %d is charged", k, i)
			}
			if ev.Labels[i] == LabelLV {
				gotLV++
			} else {
				gotPU++
			}
			if s.Train[train] != x.Offsets[k]+i {
				t.Fatalf("Train[%d] = %d, want %d", train, s.Train[train], x.Offsets[k]+i)
			}
			train++
		}
		if gotLV != want || gotPU != min(want, pu) {
			t.Errorf("event %d: %d LV and %d PU labelled, want %d of each", k, gotLV, gotPU, want)
		}
	}
	if train != len(s.Train) || train == 0 {
		t.Errorf("Train has %d nodes, labelled %d", len(s.Train), train)
	}
	// Same seed, same experiment; another seed draws other frequencies and labelled sets.
	again, err := Build(shift, Options{Seed: 3, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Graph, x.Graph) {
		t.Error("the same seed built a different graph")
	}
	other, err := Build(shift, Options{Seed: 4, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Graph.Features, x.Graph.Features) || slices.Equal(other.Graph.Splits[0].Train, s.Train) {
		t.Error("seeds 3 and 4 built the same features or labelled set")
	}
	if !slices.Equal(other.Graph.Src, g.Src) || !slices.Equal(other.Graph.Labels, g.Labels) {
		t.Error("the run seed changed the events")
	}
}

// TestBuildPaperSplit checks the paper's wording: 20%/80% of source neutrals, all target neutrals.
func TestBuildPaperSplit(t *testing.T) {
	shift, _ := ShiftByName("pu30-qq-gg")
	x, err := Build(shift, Options{Seed: 1, Data: simData(t), PaperSplit: true})
	if err != nil {
		t.Fatal(err)
	}
	s := x.Graph.Splits[0]
	nTarget := len(x.Graph.Labels) - int(x.Offsets[len(x.Source)])
	wantTrain, sourceNeutrals, targetNeutrals := 0, 0, 0
	for _, ev := range x.Source {
		wantTrain += int(0.2 * float64(len(ev.Neutral)))
		sourceNeutrals += len(ev.Neutral)
	}
	for _, ev := range x.Target {
		targetNeutrals += len(ev.Neutral)
	}
	if len(s.Train) != wantTrain || len(s.Train)+len(s.Val) != sourceNeutrals || len(s.Test) != targetNeutrals || nTarget <= 0 {
		t.Errorf("train %d val %d test %d; want %d, %d, %d", len(s.Train), len(s.Val), len(s.Test), wantTrain, sourceNeutrals-wantTrain, targetNeutrals)
	}
	if !strings.Contains(x.Graph.Notes, "paper") {
		t.Errorf("notes do not name the paper's split: %q", x.Graph.Notes)
	}
}

// TestShifts checks the six shifts and the unknown-name error.
func TestShifts(t *testing.T) {
	if len(Shifts) != 6 {
		t.Fatalf("%d shifts, want 6", len(Shifts))
	}
	for _, s := range Shifts {
		if s.SourceEvents+s.TargetEvents != 30 {
			t.Errorf("%s: %d + %d events", s.Name, s.SourceEvents, s.TargetEvents)
		}
	}
	if _, err := ShiftByName("gg-pu10-pu140"); err == nil || !strings.Contains(err.Error(), "gg-pu30-pu50") {
		t.Errorf("unknown shift: %v", err)
	}
}

// TestBuildDomainBatches: with DomainBatches each batch holds its source events then as many
// target events, paired step by step (cyclically), all the latter's nodes Target; the labelled and
// augmented nodes are those of the batches without them.
func TestBuildDomainBatches(t *testing.T) {
	shift, _ := ShiftByName("gg-pu30-pu10") // 20 source events, 10 target: the pairing wraps around
	data := simData(t)
	plain, err := Build(shift, Options{Seed: 3, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	x, err := Build(shift, Options{Seed: 3, Data: data, DomainBatches: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Graph.Validate(); err != nil {
		t.Fatal(err)
	}
	for b, tb := range x.Graph.TrainBatches {
		p := plain.Graph.TrainBatches[b]
		if p.Target != nil || !slices.Equal(tb.Labelled, p.Labelled) || !slices.Equal(tb.Augmented, p.Augmented) {
			t.Errorf("batch %d: labelled or augmented nodes differ from the plain batch's, or the plain batch has target nodes", b)
		}
		want := 0
		for e := range min(BatchSize, len(x.Source)-b*BatchSize) {
			want += x.Target[(b*BatchSize+e)%len(x.Target)].NumNodes()
		}
		n := p.Graph.NumNodes
		if len(tb.Target) != want || tb.Graph.NumNodes != n+want || tb.Target[0] != int32(n) {
			t.Errorf("batch %d: %d target nodes from node %d of %d, want %d from node %d", b, len(tb.Target), tb.Target[0], tb.Graph.NumNodes, want, n)
		}
	}
}
