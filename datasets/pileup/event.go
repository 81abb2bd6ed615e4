package pileup

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The reference pipeline's cuts and skip rule.
const (
	// EtaCut keeps particles with |η| < EtaCut.
	EtaCut = 2.5
	// PTCut keeps particles with pT > PTCut GeV.
	PTCut = 0.5
	// MinChargedLV skips events with fewer charged leading-vertex particles.
	MinChargedLV = 10
	// MinNeutralLV skips events with fewer neutral leading-vertex particles.
	MinNeutralLV = 2
	// NumFrequencies is the number of Fourier frequencies per variable (η and pT).
	NumFrequencies = 5
	// MaxFrequency bounds the frequencies: each is an integer in [0, MaxFrequency).
	MaxFrequency = 10
)

// NumFeatures is F, the width of a particle's feature row (see EventGraph.Features).
const NumFeatures = 4*NumFrequencies + numPdgColumns + 3

// numPdgColumns is the width of the |PdgID| one-hot.
const numPdgColumns = 5

// Labels of particles: LV (leading vertex, IsPU == 0) and PU (pileup).
const (
	LabelPU = 0
	LabelLV = 1
)

// pdgColumns maps |PdgID| to its one-hot column: neutral hadron, e, μ, γ, π.
var pdgColumns = map[int32]int{pdgNeutralHadron: 0, pdgElectron: 1, pdgMuon: 2, pdgPhoton: 3, pdgPion: 4}

// Frequencies are one event's integer Fourier frequencies B_η and B_pT, each in [0, MaxFrequency).
type Frequencies struct {
	Eta, PT [NumFrequencies]int
}

// DrawFrequencies draws an event's frequencies uniformly, B_η first, as the reference draws
// torch.randint(0, 10, (1, 5)) for each event.
func DrawFrequencies(rng *rand.Rand) Frequencies {
	var f Frequencies
	for k := range f.Eta {
		f.Eta[k] = rng.IntN(MaxFrequency)
	}
	for k := range f.PT {
		f.PT[k] = rng.IntN(MaxFrequency)
	}
	return f
}

// EventGraph is one event as a graph, as the reference pipeline builds it: the particles passing
// the cuts, their ΔR < 0.4 edges, features and labels. Node i is Particles' i-th candidate.
type EventGraph struct {
	// Entry is the event's index in its file.
	Entry int
	// Particles holds the candidates passing |η| < 2.5 then pT > 0.5, in file order.
	Particles Event
	// Src and Dst are the directed edges: both directions of every pair with 0 < ΔR < 0.4,
	// sorted by (Src, Dst).
	Src, Dst []int32
	// Features is the row-major [N, NumFeatures] matrix: columns 0-4 sin(2π·B_η·η), 5-9
	// cos(2π·B_η·η), 10-14 sin(2π·B_pT·pT), 15-19 cos(2π·B_pT·pT), 20-24 one-hot |PdgID| (0, 11, 13,
	// 22, 211), 25-27 one-hot charge label (0 charged PU, 1 charged LV, 2 neutral).
	Features []float32
	// Labels is [N]: LabelLV or LabelPU.
	Labels []int32
	// Neutral lists the nodes with Charge == 0, ascending.
	Neutral []int32
}

// NumNodes is N.
func (g *EventGraph) NumNodes() int { return g.Particles.Len() }

// counts returns the numbers of charged and neutral LV particles.
func (g *EventGraph) counts() (chargedLV, neutralLV int) {
	for i, q := range g.Particles.Charge {
		if g.Labels[i] != LabelLV {
			continue
		}
		if q == 0 {
			neutralLV++
		} else {
			chargedLV++
		}
	}
	return chargedLV, neutralLV
}

// Skipped reports whether the reference skips this event: fewer than 10 charged LV or fewer than 2
// neutral LV particles.
func (g *EventGraph) Skipped() bool {
	c, n := g.counts()
	return c < MinChargedLV || n < MinNeutralLV
}

// BuildEvent makes the graph of ev (entry is its index in the file) with the frequencies freq. A
// PdgID outside {0, ±11, ±13, 22, ±211} is an error (the reference's 5-column one-hot cannot hold it).
func BuildEvent(entry int, ev *Event, freq Frequencies) (*EventGraph, error) {
	g := &EventGraph{Entry: entry}
	p := &g.Particles
	for i := range ev.PT {
		if math.Abs(float64(ev.Eta[i])) < EtaCut && ev.PT[i] > PTCut {
			p.PT = append(p.PT, ev.PT[i])
			p.Eta = append(p.Eta, ev.Eta[i])
			p.Phi = append(p.Phi, ev.Phi[i])
			p.Mass = append(p.Mass, ev.Mass[i])
			p.Charge = append(p.Charge, ev.Charge[i])
			p.PdgID = append(p.PdgID, ev.PdgID[i])
			p.IsRecoPU = append(p.IsRecoPU, ev.IsRecoPU[i])
			p.IsPU = append(p.IsPU, ev.IsPU[i])
		}
	}
	n := p.Len()
	g.Labels = make([]int32, n)
	g.Features = make([]float32, n*NumFeatures)
	for i := 0; i < n; i++ {
		if p.IsPU[i] == 0 {
			g.Labels[i] = LabelLV
		}
		pdg := p.PdgID[i]
		if pdg < 0 {
			pdg = -pdg
		}
		col, ok := pdgColumns[pdg]
		if !ok {
			return nil, fmt.Errorf("pileup: event %d has a particle with PdgID %d, expected one of 0, ±11, ±13, 22, ±211", entry, p.PdgID[i])
		}
		row := g.Features[i*NumFeatures : (i+1)*NumFeatures]
		fourier(row[0:], float64(p.Eta[i]), freq.Eta)
		fourier(row[2*NumFrequencies:], float64(p.PT[i]), freq.PT)
		row[4*NumFrequencies+col] = 1
		chargeLabel := 2
		if p.Charge[i] != 0 {
			chargeLabel = int(g.Labels[i])
		} else {
			g.Neutral = append(g.Neutral, int32(i))
		}
		row[4*NumFrequencies+numPdgColumns+chargeLabel] = 1
	}
	g.Src, g.Dst = edges(p.Eta, p.Phi)
	return g, nil
}

// fourier writes sin(2π·B_k·x) into row[k] and cos(2π·B_k·x) into row[NumFrequencies+k].
func fourier(row []float32, x float64, b [NumFrequencies]int) {
	for k, f := range b {
		s, c := math.Sincos(2 * math.Pi * float64(f) * x)
		row[k], row[NumFrequencies+k] = float32(s), float32(c)
	}
}
