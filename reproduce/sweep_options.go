package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/progress"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// sweepFlags are the flags the sweep commands share (tables, figures, tune): how many runs and
// jobs, where the records go, what to do with them, the data root and the shard.
type sweepFlags struct {
	// runs and jobs are nil for a command without --runs or --jobs.
	runs, jobs                               *int
	quick, force, asJSON, dryRun, reportOnly *bool
	out, dataDir                             *string
	shard                                    *shardFlags
}

// sweepHelp words one command's shared flags; an empty runs or jobs leaves that flag out.
type sweepHelp struct {
	runs, jobs, quick, out, force, asJSON, dryRun, reportOnly string
}

// addSweepFlags defines the shared flags of a sweep command on fs, worded by h.
func addSweepFlags(fs *flag.FlagSet, h sweepHelp) *sweepFlags {
	f := &sweepFlags{
		quick:      fs.Bool("quick", false, h.quick),
		out:        fs.String("out", "results", h.out),
		force:      fs.Bool("force", false, h.force),
		asJSON:     fs.Bool("json", false, h.asJSON),
		reportOnly: fs.Bool("report-only", false, h.reportOnly),
		dataDir:    fs.String("data", "", "data root (sets $"+datasets.EnvData+"; default $"+datasets.EnvData+" or the user cache)"),
		shard:      addShardFlags(fs),
	}
	if h.runs != "" {
		f.runs = fs.Int("runs", 0, h.runs)
	}
	if h.jobs != "" {
		f.jobs = fs.Int("jobs", 1, h.jobs)
	}
	if h.dryRun != "" {
		f.dryRun = fs.Bool("dry-run", false, h.dryRun)
	}
	return f
}

// jobsHelp is the wording of --jobs for a sweep that trains units ("cells", "points", ...).
func jobsHelp(units string) string {
	return units + " to train at once (each keeps one core busy on the pure-Go backend; records do not depend on it)"
}

// options checks the parsed flags of command id (a --jobs below 1, the shard), points $GEOMIX_DATA
// at --data when given, and returns the sweep's options with the command line that resumes it.
func (f *sweepFlags) options(id string, args []string) (tables.Options, error) {
	opts := tables.Options{Quick: *f.quick, OutDir: *f.out, Force: *f.force, Command: commandLine(id, args)}
	if f.runs != nil {
		opts.Runs = *f.runs
	}
	if f.jobs != nil {
		if *f.jobs < 1 {
			return opts, fmt.Errorf("--jobs %d: want >= 1", *f.jobs)
		}
		opts.Jobs = *f.jobs
	}
	shard, err := f.shard.resolve(id, os.Getenv)
	if err != nil {
		return opts, err
	}
	opts.Shard = shard
	if *f.dataDir != "" {
		if err := os.Setenv(datasets.EnvData, *f.dataDir); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// dryRunSet reports whether --dry-run was given (false for a command without it).
func (f *sweepFlags) dryRunSet() bool { return f.dryRun != nil && *f.dryRun }

// cellOutput is where the cells of a sweep training jobs cells at once show their progress: bars
// on stderr for one, plain progress lines for several (their bars would redraw over each other).
func cellOutput(jobs int) io.Writer {
	if jobs > 1 {
		return progress.Plain(os.Stderr)
	}
	return os.Stderr
}

// startSweep returns the cell runner of a sweep training opts.Jobs cells at once (cellOutput) and
// starts listening for SIGINT and SIGTERM (signalStop): opts.Stop is closed on the first, received
// returns it, and release, which the caller defers, stops listening.
func startSweep(opts *tables.Options) (runner tables.CellRunner, received func() os.Signal, release func(), err error) {
	if runner, err = newCellRunner(cellOutput(opts.Jobs)); err != nil {
		return nil, nil, nil, err
	}
	opts.Stop, received, release = signalStop(os.Stderr)
	return runner, received, release, nil
}
