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
	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/geomix-go/geomix/geomix/training"
	"github.com/gomlx/gomlx/backends"
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
	dataset := fs.String("dataset", autoDataset, "data set ("+autoDataset+": cora; without a data root given and Cora not downloadable, synthetic): "+
		strings.Join(datasets.Names(), ", ")+"; or your graph: a .npz file (gnn-benchmark layout) or a directory (edges.csv, features.csv|npy, labels.csv|npy), see datasets.FromNPZ and FromEdgeList")
	method := fs.String("method", "geomix1", "method: "+strings.Join(geomix.Methods(), ", "))
	backbone := fs.String("backbone", "", "backbone for mixing methods (default: the preset's): "+strings.Join(backbones.Names(), ", "))
	runs := fs.Int("runs", 0, "number of runs (default: the preset's)")
	epochs := fs.Int("epochs", 0, "epochs per run (default: the preset's)")
	seed := fs.Int("seed", 0, "seed (default: the preset's, 123 or 42)")
	dataDir := fs.String("data", "", "data root (default $"+datasets.EnvData+", else the user cache "+datasets.DefaultRoot()+"); a root given that does not exist is an error")
	trainPerClass := fs.Int("train-per-class", 0, fmt.Sprintf("for a graph file without a stored split: train nodes per class (default %d), drawn with --seed", datasets.DefaultTrainPerClass))
	valPerClass := fs.Int("val-per-class", 0, fmt.Sprintf("for a graph file without a stored split: validation nodes per class (default %d)", datasets.DefaultValPerClass))
	presetOf := fs.String("preset", "", "for a graph file: start from this data set's preset for --method (default: the reference's argparse defaults); --set overrides it")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a text line")
	checkpoint := fs.String("checkpoint", "", "keep the state between runs in this file: the same command, rerun after an interruption, resumes at the run it was in (the file is deleted at the end)")
	var sets setFlags
	fs.Var(&sets, "set", "override a hyper-parameter, repeatable: "+strings.Join(geomix.ParamNames(), ", "))
	if err := parseArgs(fs, args); err != nil {
		return err
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
	root, explicitRoot, err := dataRoot(*dataDir)
	if err != nil {
		return err
	}
	backend, err := geomix.NewBackend()
	if err != nil {
		return err
	}
	data := datasets.Options{Root: root}
	name := *dataset
	if name == autoDataset {
		name = "cora"
	}
	graphFile := datasets.IsGraphPath(name)
	if !graphFile && (*trainPerClass != 0 || *valPerClass != 0 || *presetOf != "") {
		return fmt.Errorf("--train-per-class, --val-per-class and --preset apply to a graph file, not to the data set %q (its split and preset are the paper's)", name)
	}
	var opts []geomix.Option
	if *checkpoint != "" {
		opts = append(opts, geomix.WithCheckpoint(*checkpoint))
	}
	var res *geomix.Result
	if graphFile {
		data.Seed, data.TrainPerClass, data.ValPerClass = int64(*seed), *trainPerClass, *valPerClass
		res, err = trainGraphFile(ctx, backend, name, *method, *presetOf, data, opts)
	} else {
		res, err = geomix.TrainPreset(ctx, backend, name, *method, data, opts...)
		if *dataset == autoDataset && !explicitRoot && errors.Is(err, datasets.ErrMissing) {
			fmt.Fprintf(stderr, "note: no data root given ($%s unset, no --data) and Cora is not in the user cache %s nor downloadable (%v):\n"+
				"      training on the embedded synthetic data set instead (see README, 'Data')\n", datasets.EnvData, root, err)
			name = "synthetic"
			res, err = geomix.TrainPreset(ctx, backend, name, *method, data, opts...)
		}
	}
	if err != nil {
		return err
	}
	name = res.Dataset
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

// trainGraphFile trains method on the graph file at path (datasets.LoadNameOrPath) with the
// hyper-parameters of preset's script row for method when preset is not "" (else the reference's
// argparse defaults), overridden by those set in ctx.
func trainGraphFile(ctx *context.Context, backend backends.Backend, path, method, preset string, data datasets.Options, opts []geomix.Option) (*geomix.Result, error) {
	merged := context.New()
	source := "no preset for a graph file: the reference's argparse defaults"
	if preset != "" {
		p, err := presets.Apply(merged, preset, method)
		if err != nil {
			return nil, err
		}
		data.RawFeatures, source = p.RawFeatures, p.Source+" (--preset "+preset+")"
	}
	for _, k := range geomix.ParamNames() {
		if v, set := ctx.GetParam(k); set {
			merged.SetParam(k, v)
		}
	}
	g, err := datasets.LoadNameOrPath(path, data)
	if err != nil {
		return nil, err
	}
	res, err := geomix.Train(merged, backend, g, method, opts...)
	if err != nil {
		return nil, err
	}
	res.Preset, res.DataNotes = source, g.Notes
	return res, nil
}
