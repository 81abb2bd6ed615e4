package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func init() {
	register(command{
		name:    "run",
		summary: "train one method on one data set (the scripts' preset, overridable) and report test accuracy",
		example: "go run ./reproduce run --dataset citeseer --method geomix2 --runs 1 --set lr=0.05",
		run:     func(args []string) error { return runRun(args, os.Stdout, os.Stderr) },
	})
}

// autoDataset is --dataset's default: Cora when available, else the synthetic data set, so that the
// README's first command shows a result on any machine.
const autoDataset = "auto"

// setFlags collects repeated `--set key=value` flags.
type setFlags []string

// String lists the overrides given so far (flag.Value).
func (s *setFlags) String() string { return strings.Join(*s, ",") }

// Set adds one name=value override (flag.Value).
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// context returns a new context holding the --set hyper-parameters, or an error naming a malformed
// flag, an unknown parameter or a value of the wrong type.
func (s setFlags) context() (*context.Context, error) {
	ctx := context.New()
	for _, kv := range s {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--set %q: want param=value", kv)
		}
		v, err := geomix.ParseParam(key, value)
		if err != nil {
			return nil, fmt.Errorf("--set %q: %w", kv, err)
		}
		ctx.SetParam(key, v)
	}
	return ctx, nil
}

// runRun implements `reproduce run --dataset D --method M [--backbone B] [--runs R] [--epochs E]
// [--seed S] [--data DIR] [--json] [--checkpoint FILE] [--set param=value ...]`. With --json it
// prints the geomix.Result as one JSON object (dataset, method, backbone, runs, test_acc_mean,
// test_acc_std, val_acc_mean, epoch_ms_median, seconds_total, per_run, params, ...) on stdout.
func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	dataset := fs.String("dataset", autoDataset, "data set ("+autoDataset+": cora when its files are in the data root or can be downloaded, else synthetic): "+strings.Join(datasets.Names(), ", "))
	method := fs.String("method", "geomix1", "method: "+strings.Join(geomix.Methods(), ", "))
	backbone := fs.String("backbone", "", "backbone for mixing methods (default: the preset's): "+strings.Join(backbones.Names(), ", "))
	runs := fs.Int("runs", 0, "number of runs (default: the preset's)")
	epochs := fs.Int("epochs", 0, "epochs per run (default: the preset's)")
	seed := fs.Int("seed", 0, "seed (default: the preset's, 123 or 42)")
	dataDir := fs.String("data", datasets.DefaultRoot(), "data root (default $"+datasets.EnvData+" or the user cache)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a text line")
	checkpoint := fs.String("checkpoint", "", "keep the state between runs in this file: the same command, rerun after an interruption, resumes at the run it was in (the file is deleted at the end)")
	var sets setFlags
	fs.Var(&sets, "set", "override a hyper-parameter, repeatable: "+strings.Join(geomix.ParamNames(), ", "))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if _, err := methods.New(*method); err != nil {
		return err
	}
	if *backbone != "" {
		if _, err := backbones.ByName(*backbone); err != nil {
			return err
		}
	}
	ctx, err := sets.context()
	if err != nil {
		return err
	}
	for key, v := range map[string]int{training.ParamRuns: *runs, training.ParamEpochs: *epochs, training.ParamSeed: *seed} {
		if v != 0 {
			ctx.SetParam(key, v)
		}
	}
	if *backbone != "" {
		ctx.SetParam(backbones.ParamBackbone, *backbone)
	}
	backend, err := geomix.NewBackend()
	if err != nil {
		return err
	}
	data := datasets.Options{Root: *dataDir}
	name := *dataset
	if name == autoDataset {
		name = "cora"
	}
	var opts []geomix.Option
	if *checkpoint != "" {
		opts = append(opts, geomix.WithCheckpoint(*checkpoint))
	}
	res, err := geomix.TrainPreset(ctx, backend, name, *method, data, opts...)
	if *dataset == autoDataset && errors.Is(err, datasets.ErrMissing) {
		fmt.Fprintf(stderr, "note: Cora is not in the data root %s and cannot be downloaded (%v):\n"+
			"      training on the embedded synthetic data set instead (see README, 'Data')\n", *dataDir, err)
		name = "synthetic"
		res, err = geomix.TrainPreset(ctx, backend, name, *method, data, opts...)
	}
	if err != nil {
		return err
	}
	if *checkpoint != "" {
		if err := os.Remove(*checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	fmt.Fprintf(stderr, "preset: %s\n", res.Preset)
	if res.DataNotes != "" {
		fmt.Fprintf(stderr, "note on %s: %s\n", name, res.DataNotes)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	for _, rr := range res.PerRun {
		fmt.Fprintf(stdout, "Run %02d: best epoch %03d, val %.2f%%, test %.2f%%\n", rr.Run, rr.BestEpoch, rr.ValAcc, rr.TestAcc)
	}
	fmt.Fprintf(stdout, "%s %s (backbone %s): Test: %.2f ± %.2f%% over %d run(s), Val: %.2f%%, Median time per epoch: %.4fs, total %.1fs\n",
		name, res.Method, res.Backbone, res.TestAccMean, res.TestAccStd, res.Runs, res.ValAccMean,
		res.EpochMsMedian/1000, res.SecondsTotal)
	for _, name := range slices.Sorted(maps.Keys(res.ExtraTests)) {
		fmt.Fprintf(stdout, "  extra test set %s: %.2f ± %.2f%%\n", name, res.ExtraTests[name].Mean, res.ExtraTests[name].Std)
	}
	return nil
}
