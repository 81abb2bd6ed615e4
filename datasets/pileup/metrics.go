package pileup

import (
	"cmp"
	"slices"
)

// Accuracy is the fraction of nodes whose pred equals labels (what the reference reports, pooled
// over all neutral particles of the test events). pred and labels are indexed by node; 0 for no nodes.
func Accuracy(pred, labels, nodes []int32) float64 {
	if len(nodes) == 0 {
		return 0
	}
	right := 0
	for _, i := range nodes {
		if pred[i] == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(nodes))
}

// BalancedAccuracy is the mean over the classes LV and PU present among nodes of the fraction of
// that class's nodes predicted right.
func BalancedAccuracy(pred, labels, nodes []int32) float64 {
	var right, total [2]int
	for _, i := range nodes {
		y := labels[i]
		total[y]++
		if pred[i] == y {
			right[y]++
		}
	}
	sum, classes := 0.0, 0
	for c := range total {
		if total[c] > 0 {
			sum += float64(right[c]) / float64(total[c])
			classes++
		}
	}
	if classes == 0 {
		return 0
	}
	return sum / float64(classes)
}

// AUC is the area under the ROC curve of scores (higher means more LV-like, e.g. P(LV)) over nodes:
// the probability that a random LV node scores above a random PU node, ties counting one half. It is
// 0.5 when nodes hold a single class.
func AUC(scores []float32, labels, nodes []int32) float64 {
	order := slices.Clone(nodes)
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(scores[a], scores[b]) })
	// Mann-Whitney: sum of the (mid-)ranks of the LV nodes.
	var rankSum float64
	var lv, pu int
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && scores[order[end]] == scores[order[start]] {
			end++
		}
		midRank := float64(start+end+1) / 2 // ranks start+1 .. end
		for _, i := range order[start:end] {
			if labels[i] == LabelLV {
				rankSum += midRank
				lv++
			} else {
				pu++
			}
		}
		start = end
	}
	if lv == 0 || pu == 0 {
		return 0.5
	}
	return (rankSum - float64(lv)*float64(lv+1)/2) / (float64(lv) * float64(pu))
}

// MajorityAccuracy is the accuracy over nodes of predicting their most frequent label for all of
// them: the baseline every accuracy should be compared with (about 0.8 at PU30).
func MajorityAccuracy(labels, nodes []int32) float64 {
	if len(nodes) == 0 {
		return 0
	}
	lv := 0
	for _, i := range nodes {
		if labels[i] == LabelLV {
			lv++
		}
	}
	return float64(max(lv, len(nodes)-lv)) / float64(len(nodes))
}
