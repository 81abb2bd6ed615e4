package datasets

import (
	"slices"
	"testing"
)

func TestClassRandSplits2(t *testing.T) {
	labels := []int32{0, 1, 2, 0, 0, 1, 0, 0, 1, 2} // class sizes 5, 3, 2
	s, err := classRandSplits2(labels, 3, 3, 2, newSplitRNG(123))
	if err != nil {
		t.Fatal(err)
	}
	perClass := make([]int, 3)
	for _, i := range s.Train {
		perClass[labels[i]]++
	}
	// min(3, class size) train nodes per class, then 2 validation nodes out of the other 2.
	if !slices.Equal(perClass, []int{3, 3, 2}) || len(s.Val) != 2 || len(s.Test) != 0 {
		t.Errorf("train per class %v, %d val, %d test; want [3 3 2], 2, 0", perClass, len(s.Val), len(s.Test))
	}
	all := slices.Concat(s.Train, s.Val, s.Test)
	slices.Sort(all)
	if !slices.Equal(all, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) || !slices.IsSorted(s.Train) {
		t.Errorf("split does not partition the nodes in sorted sets: %+v", s)
	}
	again, _ := classRandSplits2(labels, 3, 3, 2, newSplitRNG(123))
	if !slices.Equal(again.Val, s.Val) || !slices.Equal(again.Train, s.Train) {
		t.Errorf("same seed gave %+v then %+v", s, again)
	}
	if _, err := classRandSplits2([]int32{0, 3}, 3, 1, 0, newSplitRNG(1)); err == nil {
		t.Errorf("a label outside [0, 3) was accepted")
	}
}

func TestRandomSplitSizes(t *testing.T) {
	nodes := []int32{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	s := randomSplit(nodes, 0.5, 0.25, newSplitRNG(5))
	// int(0.5*11) = 5 train, int(0.25*11) = 2 validation, 4 test.
	if len(s.Train) != 5 || len(s.Val) != 2 || len(s.Test) != 4 {
		t.Errorf("sizes %d/%d/%d, want 5/2/4", len(s.Train), len(s.Val), len(s.Test))
	}
	all := slices.Concat(s.Train, s.Val, s.Test)
	slices.Sort(all)
	if !slices.Equal(all, nodes) {
		t.Errorf("split %v does not partition %v", all, nodes)
	}
}
