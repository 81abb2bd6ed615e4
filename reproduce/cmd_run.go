package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func init() {
	register(command{
		name:    "run",
		summary: "train one method on one data set (the scripts' preset, overridable) and report test accuracy",
		run:     runRun,
	})
}

// setFlags collects repeated `--set key=value` flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ",") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// runSummary is the --json output of `reproduce run`.
type runSummary struct {
	Dataset       string  `json:"dataset"`
	Method        string  `json:"method"`
	Backbone      string  `json:"backbone"`
	Runs          int     `json:"runs"`
	TestAccMean   float64 `json:"test_acc_mean"`
	TestAccStd    float64 `json:"test_acc_std"`
	ValAccMean    float64 `json:"val_acc_mean"`
	EpochMsMedian float64 `json:"epoch_ms_median"`
	SecondsTotal  float64 `json:"seconds_total"`
}

// newBackend returns the backend GOMLX_BACKEND names when set (e.g. XLA for users who have it),
// else the pure-Go backend.
func newBackend() (backends.Backend, error) {
	if os.Getenv("GOMLX_BACKEND") != "" {
		return backends.New()
	}
	return simplego.New(geomix.SimpleGoConfig)
}

// runRun implements `reproduce run --dataset D --method M [--backbone B] [--runs R] [--epochs E]
// [--seed S] [--data DIR] [--json] [--set param=value ...]`.
func runRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dataset := fs.String("dataset", "", "data set: "+strings.Join(datasets.Names(), ", "))
	method := fs.String("method", "", "method: "+strings.Join(geomix.MethodNames(), ", "))
	backbone := fs.String("backbone", "", "backbone for mixing methods (default: the preset's): "+strings.Join(geomix.BackboneNames(), ", "))
	runs := fs.Int("runs", 0, "number of runs (default: the preset's)")
	epochs := fs.Int("epochs", 0, "epochs per run (default: the preset's)")
	seed := fs.Int("seed", 0, "seed (default: the preset's, 123 or 42)")
	dataDir := fs.String("data", datasets.DefaultRoot(), "data root (default $"+datasets.EnvData+" or the user cache)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a text line")
	var sets setFlags
	fs.Var(&sets, "set", "override a hyper-parameter, repeatable: "+strings.Join(geomix.ParamNames(), ", "))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *dataset == "" || *method == "" {
		return fmt.Errorf("--dataset and --method are required (data sets: %s; methods: %s)",
			strings.Join(datasets.Names(), ", "), strings.Join(geomix.MethodNames(), ", "))
	}
	if !slices.Contains(datasets.Names(), *dataset) {
		return fmt.Errorf("unknown data set %q: valid data sets are %s", *dataset, strings.Join(datasets.Names(), ", "))
	}
	if _, _, err := geomix.ParseMethod(*method); err != nil {
		return err
	}
	if *backbone != "" {
		if _, err := geomix.BackboneByName(*backbone); err != nil {
			return err
		}
	}
	ctx := context.New()
	loadOpts := datasets.Options{Root: *dataDir}
	if preset, err := geomix.ApplyPreset(ctx, *dataset, *method); err == nil {
		loadOpts.RawFeatures = preset.RawFeatures
		fmt.Fprintf(os.Stderr, "preset: %s\n", preset.Source)
	} else if !strings.HasPrefix(err.Error(), "no preset") {
		return err
	} else {
		fmt.Fprintf(os.Stderr, "note: %v; using the reference's argparse defaults\n", err)
	}
	for _, kv := range sets {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %q: want param=value", kv)
		}
		v, err := geomix.ParseParam(key, value)
		if err != nil {
			return fmt.Errorf("--set %q: %w", kv, err)
		}
		ctx.SetParam(key, v)
	}
	for key, v := range map[string]int{geomix.ParamRuns: *runs, geomix.ParamEpochs: *epochs, geomix.ParamSeed: *seed} {
		if v != 0 {
			ctx.SetParam(key, v)
		}
	}
	if *backbone != "" {
		ctx.SetParam(geomix.ParamBackbone, *backbone)
	}
	g, err := datasets.Load(*dataset, loadOpts)
	if err != nil {
		return err
	}
	if g.Notes != "" {
		fmt.Fprintf(os.Stderr, "note on %s: %s\n", g.Name, g.Notes)
	}
	backend, err := newBackend()
	if err != nil {
		return err
	}
	res, err := geomix.Train(ctx, backend, g, *method)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		return enc.Encode(runSummary{Dataset: *dataset, Method: res.Method, Backbone: res.Backbone, Runs: res.Runs,
			TestAccMean: res.TestAccMean, TestAccStd: res.TestAccStd, ValAccMean: res.ValAccMean,
			EpochMsMedian: res.EpochMsMedian, SecondsTotal: res.SecondsTotal})
	}
	for _, rr := range res.PerRun {
		fmt.Printf("Run %02d: best epoch %03d, val %.2f%%, test %.2f%%\n", rr.Run, rr.BestEpoch, rr.ValAcc, rr.TestAcc)
	}
	fmt.Printf("%s %s (backbone %s): Test: %.2f ± %.2f%% over %d run(s), Val: %.2f%%, Median time per epoch: %.4fs, total %.1fs\n",
		*dataset, res.Method, res.Backbone, res.TestAccMean, res.TestAccStd, res.Runs, res.ValAccMean,
		res.EpochMsMedian/1000, res.SecondsTotal)
	return nil
}
