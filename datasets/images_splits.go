package datasets

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// referenceSeed is the seed of the authors' main_exp and twitch scripts (argparse default 123).
const referenceSeed = 123

// newSplitRNG is the generator of this package's random splits. The reference draws its splits
// with torch.randperm, which cannot be replicated in Go: the same protocol gives other node sets.
func newSplitRNG(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}

// classRandSplits2 is the reference's class_rand_splits_2 (images, 20News and the digits
// stand-in): per class, in increasing label order, a random permutation of the class's nodes gives
// perClass train nodes (all of them when the class is smaller); every other node is then shuffled
// and the first validNum become validation, the rest test.
func classRandSplits2(labels []int32, numClasses, perClass, validNum int, rng *rand.Rand) (Split, error) {
	if perClass <= 0 || validNum < 0 {
		return Split{}, fmt.Errorf("split: %d labels per class and %d validation nodes, expected > 0 and >= 0", perClass, validNum)
	}
	byClass := make([][]int32, numClasses)
	for i, y := range labels {
		if y < 0 || int(y) >= numClasses {
			return Split{}, fmt.Errorf("split: node %d has label %d, expected [0, %d)", i, y, numClasses)
		}
		byClass[y] = append(byClass[y], int32(i))
	}
	var train, rest []int32
	for _, nodes := range byClass {
		perm := rng.Perm(len(nodes))
		for p, q := range perm {
			if p < perClass {
				train = append(train, nodes[q])
			} else {
				rest = append(rest, nodes[q])
			}
		}
	}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	validNum = min(validNum, len(rest))
	return sortedSplit(train, rest[:validNum], rest[validNum:]), nil
}

// randomSplit is the reference's rand_train_test_idx: one random permutation of nodes, the first
// int(trainFrac*n) train, the next int(validFrac*n) validation, the rest test.
func randomSplit(nodes []int32, trainFrac, validFrac float64, rng *rand.Rand) Split {
	perm := slices.Clone(nodes)
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	nTrain := int(trainFrac * float64(len(perm)))
	nValid := int(validFrac * float64(len(perm)))
	return sortedSplit(perm[:nTrain], perm[nTrain:nTrain+nValid], perm[nTrain+nValid:])
}

// sortedSplit copies and sorts the three node sets into a Split.
func sortedSplit(train, val, test []int32) Split {
	s := Split{Train: slices.Clone(train), Val: slices.Clone(val), Test: slices.Clone(test)}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s
}
