package pileup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
)

// Protocol parameters of the released GeoMix code (src/pileup: prep_data.py, transfer.py).
const (
	// LabelledRatio is the fraction of a source event's neutral LV particles that are labelled,
	// with as many neutral PU particles (balanced); the paper's split labels this fraction of all
	// neutrals.
	LabelledRatio = 0.2
	// ValRatio is the fraction of the kept target events (the first ones) used for validation.
	ValRatio = 0.2
	// BatchSize is how many source events one update trains on: the reference's DataLoader batch
	// (src/pileup/exp/trans.sh), in file order, without shuffling.
	BatchSize = 5
)

// Shift is one domain shift of the Pileup experiment: train on the first SourceEvents events of the
// source sample, test on the first TargetEvents of the target sample.
type Shift struct {
	Name                         string
	SourceProcess, TargetProcess string
	SourcePU, TargetPU           int
	SourceEvents, TargetEvents   int
}

// Shifts are the six shifts of the GeoMix paper's figure, with the event counts of the released
// scripts (src/pileup/exp/trans.sh: 10 source and 20 target events, except 20 and 10 for PU30→PU10).
var Shifts = []Shift{
	{Name: "gg-pu10-pu30", SourceProcess: "gg", TargetProcess: "gg", SourcePU: 10, TargetPU: 30, SourceEvents: 10, TargetEvents: 20},
	{Name: "gg-pu30-pu10", SourceProcess: "gg", TargetProcess: "gg", SourcePU: 30, TargetPU: 10, SourceEvents: 20, TargetEvents: 10},
	{Name: "gg-pu30-pu50", SourceProcess: "gg", TargetProcess: "gg", SourcePU: 30, TargetPU: 50, SourceEvents: 10, TargetEvents: 20},
	{Name: "gg-pu50-pu30", SourceProcess: "gg", TargetProcess: "gg", SourcePU: 50, TargetPU: 30, SourceEvents: 10, TargetEvents: 20},
	{Name: "pu30-gg-qq", SourceProcess: "gg", TargetProcess: "qq", SourcePU: 30, TargetPU: 30, SourceEvents: 10, TargetEvents: 20},
	{Name: "pu30-qq-gg", SourceProcess: "qq", TargetProcess: "gg", SourcePU: 30, TargetPU: 30, SourceEvents: 10, TargetEvents: 20},
}

// ShiftByName returns the shift called name (see Shifts).
func ShiftByName(name string) (Shift, error) {
	names := make([]string, len(Shifts))
	for i, s := range Shifts {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	return Shift{}, fmt.Errorf("pileup: unknown shift %q; known: %s", name, strings.Join(names, ", "))
}

// Options configure Build.
type Options struct {
	// Seed is the run seed: it draws the events' Fourier frequencies and the labelled particles.
	Seed uint64
	// Data says where the sample files come from.
	Data Data
	// PaperSplit follows the paper's wording instead of the released code: 20% of the source neutrals
	// (drawn per event, not balanced) train, the other 80% validate, and all target neutrals test.
	PaperSplit bool
	// DomainBatches joins target events into every train batch as its Target nodes, for
	// domain-adversarial training (DANN), pairing source and target events step by step as
	// StruRW's template does: batch b's k-th source event goes with target event b·BatchSize+k
	// (modulo the number of kept target events). The target events' labels stay unused.
	DomainBatches bool
}

// Experiment is what a trainer needs for one shift and seed.
type Experiment struct {
	Shift Shift
	// Graph holds the kept source events then the kept target events as one block-diagonal graph
	// (see Merge), [N, NumFeatures] features, labels LabelLV = 1 / LabelPU = 0, and one split:
	//   - released code (default): Train = the labelled source neutrals (balanced: LabelledRatio
	//     of each event's neutral LV and as many neutral PU), Val = all neutrals of the first
	//     ⌊ValRatio·T⌋ kept target events, Test = all neutrals of the other target events;
	//   - PaperSplit: Train = LabelledRatio of each source event's neutrals, Val = its other
	//     neutrals, Test = all target neutrals.
	// Charged particles are in no split: their labels are input features (columns 25-27).
	// Graph.TrainBatches are the source events BatchSize at a time (see datasets.TrainBatch), the
	// graphs the updates train on.
	Graph *datasets.Graph
	// Source and Target are the kept events (local node indices); event k of Source starts at node
	// Offsets[k] of Graph, event k of Target at Offsets[len(Source)+k]; Offsets ends with N.
	Source, Target []*EventGraph
	Offsets        []int32
	// Labelled holds, per source event, the local indices of its labelled neutrals (Graph's Train
	// split is their union), for trainers that batch source events (see Merge).
	Labelled [][]int32
	// SourceNeutrals is every neutral node of the source events in Graph (the reference's
	// neutral_index, which its augmentation loss uses).
	SourceNeutrals []int32
	// SourceSample and TargetSample say which files were read.
	SourceSample, TargetSample Sample
}

// Build reads the shift's events, builds their graphs and splits them as the released code does
// (or as the paper says, with PaperSplit), deterministically from opts.Seed and the files.
func Build(shift Shift, opts Options) (*Experiment, error) {
	x := &Experiment{Shift: shift}
	var err error
	if x.SourceSample, err = opts.Data.Sample(shift.SourceProcess, shift.SourcePU); err != nil {
		return nil, err
	}
	if x.TargetSample, err = opts.Data.Sample(shift.TargetProcess, shift.TargetPU); err != nil {
		return nil, err
	}
	freqRNG := rand.New(rand.NewPCG(opts.Seed, 1))
	if x.Source, err = readGraphs(x.SourceSample.Path, shift.SourceEvents, freqRNG); err != nil {
		return nil, err
	}
	if x.Target, err = readGraphs(x.TargetSample.Path, shift.TargetEvents, freqRNG); err != nil {
		return nil, err
	}
	if len(x.Source) == 0 || len(x.Target) == 0 {
		return nil, fmt.Errorf("pileup: shift %s keeps %d source and %d target events after the skips, expected some of each",
			shift.Name, len(x.Source), len(x.Target))
	}
	x.Graph, x.Offsets = Merge("pileup-"+shift.Name, append(slices.Clone(x.Source), x.Target...))
	x.split(rand.New(rand.NewPCG(opts.Seed, 2)), opts.PaperSplit)
	x.Graph.TrainBatches = x.trainBatches(opts.DomainBatches)
	x.Graph.Notes = x.notes(opts.PaperSplit)
	return x, nil
}

// readGraphs reads the first n events of path and returns the graphs of those the reference keeps,
// drawing every read event's frequencies from rng (the reference draws them before skipping).
func readGraphs(path string, n int, rng *rand.Rand) ([]*EventGraph, error) {
	var out []*EventGraph
	_, err := ReadEvents(path, n, func(entry int, ev *Event) error {
		g, err := BuildEvent(entry, ev, DrawFrequencies(rng))
		if err != nil {
			return err
		}
		if !g.Skipped() {
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// split fills Labelled, SourceNeutrals and Graph.Splits.
func (x *Experiment) split(rng *rand.Rand, paper bool) {
	var s datasets.Split
	nSource := len(x.Source)
	for k, ev := range x.Source {
		off := x.Offsets[k]
		var labelled, rest []int32
		if paper {
			neutral := slices.Clone(ev.Neutral)
			rng.Shuffle(len(neutral), func(i, j int) { neutral[i], neutral[j] = neutral[j], neutral[i] })
			cut := int(LabelledRatio * float64(len(neutral)))
			labelled, rest = neutral[:cut], neutral[cut:]
		} else {
			labelled = balancedLabelled(ev, rng)
		}
		slices.Sort(labelled)
		x.Labelled = append(x.Labelled, labelled)
		for _, i := range labelled {
			s.Train = append(s.Train, off+i)
		}
		for _, i := range rest {
			s.Val = append(s.Val, off+i)
		}
		for _, i := range ev.Neutral {
			x.SourceNeutrals = append(x.SourceNeutrals, off+i)
		}
	}
	nVal := int(ValRatio * float64(len(x.Target)))
	for k, ev := range x.Target {
		off := x.Offsets[nSource+k]
		for _, i := range ev.Neutral {
			if !paper && k < nVal {
				s.Val = append(s.Val, off+i)
			} else {
				s.Test = append(s.Test, off+i)
			}
		}
	}
	slices.Sort(s.Val)
	x.Graph.Splits = []datasets.Split{s}
}

// trainBatches joins the kept source events, BatchSize at a time in order, into the graphs the
// updates train on: each batch's labelled neutrals (Labelled) carry the supervised loss and all its
// neutrals (the reference's neutral_index) GeoMix's augmentation loss. With domain, as many target
// events follow the source events of each batch (see Options.DomainBatches), all their nodes Target.
func (x *Experiment) trainBatches(domain bool) []datasets.TrainBatch {
	var out []datasets.TrainBatch
	for k := 0; k < len(x.Source); k += BatchSize {
		events := slices.Clone(x.Source[k:min(k+BatchSize, len(x.Source))])
		nSource := len(events)
		if domain {
			for e := range nSource {
				events = append(events, x.Target[(k+e)%len(x.Target)])
			}
		}
		g, offsets := Merge(fmt.Sprintf("%s-batch%d", x.Graph.Name, len(out)), events)
		tb := datasets.TrainBatch{Graph: g}
		for e, ev := range events[:nSource] {
			for _, i := range x.Labelled[k+e] {
				tb.Labelled = append(tb.Labelled, offsets[e]+i)
			}
			for _, i := range ev.Neutral {
				tb.Augmented = append(tb.Augmented, offsets[e]+i)
			}
		}
		for i := offsets[nSource]; i < offsets[len(events)]; i++ {
			tb.Target = append(tb.Target, i)
		}
		slices.Sort(tb.Augmented)
		out = append(out, tb)
	}
	return out
}

// balancedLabelled is the reference's labeled_index of one event: shuffle its neutral LV and neutral
// PU particles and take the first ⌊LabelledRatio·#LV⌋ of each (fewer PU if it has fewer).
func balancedLabelled(ev *EventGraph, rng *rand.Rand) []int32 {
	var lv, pu []int32
	for _, i := range ev.Neutral {
		if ev.Labels[i] == LabelLV {
			lv = append(lv, i)
		} else {
			pu = append(pu, i)
		}
	}
	rng.Shuffle(len(lv), func(i, j int) { lv[i], lv[j] = lv[j], lv[i] })
	rng.Shuffle(len(pu), func(i, j int) { pu[i], pu[j] = pu[j], pu[i] })
	k := int(LabelledRatio * float64(len(lv)))
	return append(lv[:k:k], pu[:min(k, len(pu))]...)
}

// notes describes the experiment's data and split for Graph.Notes.
func (x *Experiment) notes(paper bool) string {
	s := fmt.Sprintf("Pileup Mitigation shift %s: %d of the first %d events of %s, then %d of the first %d events of %s "+
		"(events with < %d charged LV or < %d neutral LV particles skipped). ",
		x.Shift.Name, len(x.Source), x.Shift.SourceEvents, x.SourceSample, len(x.Target), x.Shift.TargetEvents, x.TargetSample,
		MinChargedLV, MinNeutralLV)
	if paper {
		s += "Split as the paper words it: 20% of each source event's neutrals train, the other 80% validate, all target neutrals test. "
	} else {
		s += fmt.Sprintf("Split as the released GeoMix code: balanced 20%% labelled source neutrals train, the neutrals of the first %d target events validate, those of the other %d test. ",
			int(ValRatio*float64(len(x.Target))), len(x.Target)-int(ValRatio*float64(len(x.Target))))
	}
	if x.SourceSample.Simulated || x.TargetSample.Simulated {
		s += "The events come from this toolkit's Delphes-like simulator (calibrated to the StruRW README's per-event statistics), not the Zenodo files."
	} else {
		s += "The events come from the Zenodo 8015774 Delphes files."
	}
	return s
}
