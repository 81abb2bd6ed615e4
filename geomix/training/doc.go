// Package training runs the authors' protocol for any method of package methods on a
// *datasets.Graph: every epoch one full-batch update on all nodes followed by an evaluation in
// eval mode on the original features; each run reports the test accuracy at its first best
// validation epoch (Train, Result); Adam with PyTorch's coupled weight decay (ApplyAdam), carried
// across runs as the authors' main_exp and hetero code do unless ParamResetAdam; checkpoints
// between runs, with a SHA-256 of their content checked before resuming, so that a stopped training
// resumes with the same numbers (WithCheckpoint, WithStop); and the hyper-parameters every package
// reads, with their defaults and valid ranges (ParamNames, ParseParam, CheckParams). Stepper runs
// single epochs for benchmarks.
//
//	ctx := context.New()
//	ctx.SetParam(training.ParamEpochs, 200)
//	res, err := training.Train(ctx, backend, g, "geomix1", training.WithProgress(os.Stderr))
package training
