package pileup

import (
	"fmt"
	"math"
)

// Species of a particle in an event drawing: neutral or charged, and its label.
const (
	SpeciesNeutralPU = iota
	SpeciesNeutralLV
	SpeciesChargedPU
	SpeciesChargedLV
)

// SpeciesNames are the printed names of the Species* classes.
var SpeciesNames = []string{"neutral PU", "neutral LV", "charged PU", "charged LV"}

// Species returns each node's Species* class [N]: what a drawing of the event colours it by.
func (g *EventGraph) Species() []int32 {
	out := make([]int32, g.NumNodes())
	for i, q := range g.Particles.Charge {
		out[i] = g.Labels[i] // SpeciesNeutralPU + label
		if q != 0 {
			out[i] += SpeciesChargedPU
		}
	}
	return out
}

// NeighbourLV is the neighbourhood statistic that makes the task learnable: for each neutral
// particle with at least one charged neighbour (ΔR < 0.4), the fraction of its charged neighbours
// that are LV (their labels are input features), split by the neutral's own label.
type NeighbourLV struct {
	// LV and PU hold the fractions of the LV and of the PU neutrals, in [0, 1].
	LV, PU []float64
	// NoCharged counts the neutrals without a charged neighbour (in neither list).
	NoCharged int
}

// NeighbourStats returns the statistic over the neutrals of events.
func NeighbourStats(events []*EventGraph) NeighbourLV {
	var s NeighbourLV
	for _, g := range events {
		chargedLV, charged := make([]int, g.NumNodes()), make([]int, g.NumNodes())
		for e, src := range g.Src {
			if g.Particles.Charge[src] != 0 {
				dst := g.Dst[e]
				charged[dst]++
				if g.Labels[src] == LabelLV {
					chargedLV[dst]++
				}
			}
		}
		for _, i := range g.Neutral {
			switch {
			case charged[i] == 0:
				s.NoCharged++
			case g.Labels[i] == LabelLV:
				s.LV = append(s.LV, float64(chargedLV[i])/float64(charged[i]))
			default:
				s.PU = append(s.PU, float64(chargedLV[i])/float64(charged[i]))
			}
		}
	}
	return s
}

// AUC is the ROC AUC of the fraction as a score for LV (0.5 when a class is empty): how well the
// statistic alone tells LV from PU neutrals.
func (s NeighbourLV) AUC() float64 {
	scores := make([]float32, 0, len(s.LV)+len(s.PU))
	labels := make([]int32, 0, cap(scores))
	for _, v := range s.LV {
		scores, labels = append(scores, float32(v)), append(labels, LabelLV)
	}
	for _, v := range s.PU {
		scores, labels = append(scores, float32(v)), append(labels, LabelPU)
	}
	nodes := make([]int32, len(scores))
	for i := range nodes {
		nodes[i] = int32(i)
	}
	return AUC(scores, labels, nodes)
}

// Histograms returns the share in percent of the LV and of the PU neutrals in each of bins equal
// bins of the fraction over [0, 1] (the last bin includes 1); see BinLabels.
func (s NeighbourLV) Histograms(bins int) (lv, pu []float64) {
	return histogram(s.LV, bins), histogram(s.PU, bins)
}

// String is the statistic in key=value form: the means of both classes, the AUC and the counts.
func (s NeighbourLV) String() string {
	return fmt.Sprintf("lv_mean=%.3f pu_mean=%.3f auc=%.3f lv=%d pu=%d no_charged=%d", mean(s.LV), mean(s.PU), s.AUC(), len(s.LV), len(s.PU), s.NoCharged)
}

// histogram returns the share in percent of values in each of bins equal bins over [0, 1] (the
// last bin includes 1); all zero for no values.
func histogram(values []float64, bins int) []float64 {
	shares := make([]float64, bins)
	for _, v := range values {
		shares[min(int(math.Floor(v*float64(bins))), bins-1)] += 100 / float64(len(values))
	}
	return shares
}

// BinLabels names bins equal bins over [0, 1], e.g. "0.0-0.1" for 10.
func BinLabels(bins int) []string {
	out := make([]string, bins)
	for b := range out {
		out[b] = fmt.Sprintf("%.1f-%.1f", float64(b)/float64(bins), float64(b+1)/float64(bins))
	}
	return out
}

// mean is the mean of values (NaN for none).
func mean(values []float64) float64 {
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// EtaPhi returns the particles' η and φ [N], e.g. to draw the event.
func (g *EventGraph) EtaPhi() (eta, phi []float64) {
	eta, phi = make([]float64, g.NumNodes()), make([]float64, g.NumNodes())
	for i := range eta {
		eta[i], phi[i] = float64(g.Particles.Eta[i]), float64(g.Particles.Phi[i])
	}
	return eta, phi
}
