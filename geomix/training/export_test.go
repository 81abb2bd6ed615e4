package training

// TrainTinyOn and SameRuns serve the external tests of package training_test.
var (
	TrainTinyOn = trainTinyOn
	SameRuns    = sameRuns
)
