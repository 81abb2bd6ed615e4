// Package training runs the authors' protocol for any method of package methods on a
// *datasets.Graph: every epoch one full-batch update on all nodes followed by an evaluation in
// eval mode on the original features; each run reports the test accuracy at its first best
// validation epoch (Train, Result); Adam with PyTorch's coupled weight decay (ApplyAdam), carried
// across runs as the authors' main_exp and hetero code do unless ParamResetAdam; checkpoints
// between runs so that a stopped training resumes with the same numbers (WithCheckpoint); and the
// hyper-parameters every package reads (ParamNames, ParseParam, CheckParams). Stepper runs single
// epochs for benchmarks.
//
//	ctx := context.New()
//	ctx.SetParam(training.ParamEpochs, 200)
//	res, err := training.Train(ctx, backend, g, "geomix1", training.WithProgress(os.Stderr))
package training
