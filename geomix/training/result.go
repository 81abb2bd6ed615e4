package training

// EpochStats is what one training epoch measured: accuracies (fractions in [0, 1]) of the model in
// evaluation mode on the original features, the training loss, and the epoch's wall time.
type EpochStats struct {
	Epoch                     int
	Loss                      float64
	TrainAcc, ValAcc, TestAcc float64
	Millis                    float64
}

// RunResult is one independent run: its per-epoch curve and the epoch chosen by the best
// validation accuracy (first maximum), whose test accuracy is the run's result. ValAcc and TestAcc
// are in percent, like Result's; Split is the index into the graph's Splits the run used.
type RunResult struct {
	Run       int     `json:"run"`
	Split     int     `json:"split"`
	BestEpoch int     `json:"best_epoch"`
	ValAcc    float64 `json:"val_acc"`
	TestAcc   float64 `json:"test_acc"`
	// ExtraTestAcc holds accuracies at BestEpoch on named extra test sets (e.g. Twitch OOD graphs).
	ExtraTestAcc map[string]float64 `json:"extra_test_acc,omitempty"`
	Curve        []EpochStats       `json:"-"`
}

// Result summarises R runs of one (dataset, method, backbone). Accuracies are in percent;
// TestAccStd is the unbiased standard deviation over runs.
type Result struct {
	Dataset       string         `json:"dataset"`
	Method        string         `json:"method"`
	Backbone      string         `json:"backbone"`
	Runs          int            `json:"runs"`
	TestAccMean   float64        `json:"test_acc_mean"`
	TestAccStd    float64        `json:"test_acc_std"`
	ValAccMean    float64        `json:"val_acc_mean"`
	EpochMsMedian float64        `json:"epoch_ms_median"`
	SecondsTotal  float64        `json:"seconds_total"`
	PerRun        []RunResult    `json:"per_run"`
	Params        map[string]any `json:"params"`
	// Preset names the authors' script row the parameters came from (TrainPreset only).
	Preset string `json:"preset,omitempty"`
	// DataNotes says where the data set differs from the paper's (datasets.Graph.Notes).
	DataNotes string `json:"data_notes,omitempty"`
	// ExtraTests is the accuracy at each run's selected epoch on the graph's named extra test sets
	// (datasets.Graph.ExtraTests, e.g. Twitch's OOD graphs), over runs; nil when it has none.
	ExtraTests map[string]MeanStd `json:"extra_tests,omitempty"`
	// TrainableParams counts the model's trained scalars (every trainable variable of the model,
	// frozen attention weights and the optimizer's state excluded): what a tuning's tie-break
	// compares.
	TrainableParams int `json:"trainable_params,omitempty"`
}

// MeanStd is a mean and its unbiased standard deviation over runs, in percent.
type MeanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}
