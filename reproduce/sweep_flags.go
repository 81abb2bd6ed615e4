package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/geomix-go/geomix/reproduce/tables"
)

// Environment variables a batch scheduler sets for one task of an array, read by the sweeps when
// --shard is not given (see docs/cluster.md).
const (
	// envSlurmTaskID, envSlurmTaskCount, envSlurmTaskMin and envSlurmTaskStep are a Slurm job array
	// task's index, the array's size, its first index and its step.
	envSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	envSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	envSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	envSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	// envJobIndex is a Kubernetes Indexed Job pod's index, 0 to completions-1.
	envJobIndex = "JOB_COMPLETION_INDEX"
	// envShards is the number of shards when the scheduler does not export it (Kubernetes: the
	// Job's completions); --shards overrides it.
	envShards = "GEOMIX_SHARDS"
)

// shardFlags are the flags that split a sweep over processes.
type shardFlags struct {
	shard  *string
	shards *int
}

// addShardFlags defines --shard and --shards on fs.
func addShardFlags(fs *flag.FlagSet) *shardFlags {
	return &shardFlags{
		shard: fs.String("shard", "", "train only shard i of n of the sweep's cells (i/n, 1-based; default: from "+envSlurmTaskID+"/"+envSlurmTaskCount+
			" or "+envJobIndex+" with --shards): the shards balance the cells' measured cost, and cell locks make shards over one --out safe"),
		shards: fs.Int("shards", 0, "number of shards when the index comes from "+envJobIndex+" (default $"+envShards+")"),
	}
}

// resolve returns the shard from --shard, else from the scheduler's environment (getenv), and says
// on stderr which shard of command id this process is when it came from the environment.
func (f *shardFlags) resolve(id string, getenv func(string) string) (tables.Shard, error) {
	s, from, err := f.fromFlagsOrEnv(getenv)
	if err == nil && from != "" {
		fmt.Fprintf(os.Stderr, "%s: shard %s (%s)\n", id, s, from)
	}
	return s, err
}

// fromFlagsOrEnv returns the shard from --shard, else from the scheduler's environment (getenv),
// with a note saying where it came from ("" for --shard or the whole sweep).
func (f *shardFlags) fromFlagsOrEnv(getenv func(string) string) (tables.Shard, string, error) {
	count := *f.shards
	if count == 0 && getenv(envShards) != "" {
		n, err := strconv.Atoi(getenv(envShards))
		if err != nil {
			return tables.Shard{}, "", fmt.Errorf("$%s = %q: want the number of shards", envShards, getenv(envShards))
		}
		count = n
	}
	if *f.shard != "" {
		i, n, ok := strings.Cut(*f.shard, "/")
		index, err1 := strconv.Atoi(i)
		total, err2 := strconv.Atoi(n)
		s := tables.Shard{Index: index, Count: total}
		if !ok || err1 != nil || err2 != nil || s.Check() != nil {
			return tables.Shard{}, "", fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/3", *f.shard)
		}
		if *f.shards != 0 && *f.shards != total {
			return tables.Shard{}, "", fmt.Errorf("--shard %s and --shards %d disagree", *f.shard, *f.shards)
		}
		return s, "", nil
	}
	if id := getenv(envSlurmTaskID); id != "" && getenv(envSlurmTaskCount) != "" {
		return slurmShard(getenv)
	}
	if idx := getenv(envJobIndex); idx != "" {
		index, err := strconv.Atoi(idx)
		if err != nil {
			return tables.Shard{}, "", fmt.Errorf("$%s = %q: want a number", envJobIndex, idx)
		}
		if count == 0 {
			return tables.Shard{}, "", fmt.Errorf("$%s = %d is set but not the number of shards: pass --shards N or set $%s (the Job's completions)", envJobIndex, index, envShards)
		}
		s := tables.Shard{Index: index + 1, Count: count}
		if err := s.Check(); err != nil {
			return tables.Shard{}, "", fmt.Errorf("$%s = %d with %d shards: %w", envJobIndex, index, count, err)
		}
		return s, fmt.Sprintf("from $%s=%d and %d shards", envJobIndex, index, count), nil
	}
	if *f.shards != 0 {
		return tables.Shard{}, "", fmt.Errorf("--shards %d without --shard, $%s or $%s: which shard is this?", *f.shards, envSlurmTaskID, envJobIndex)
	}
	return tables.Shard{}, "", nil
}

// slurmShard is the shard of a Slurm array task: the task's position in the array (its id less
// the array's first id, over the step) of the array's size.
func slurmShard(getenv func(string) string) (tables.Shard, string, error) {
	num := func(key string, def int) (int, error) {
		if getenv(key) == "" {
			return def, nil
		}
		v, err := strconv.Atoi(getenv(key))
		if err != nil {
			return 0, fmt.Errorf("$%s = %q: want a number", key, getenv(key))
		}
		return v, nil
	}
	var vals [4]int
	for i, kv := range []struct {
		key string
		def int
	}{{envSlurmTaskID, 0}, {envSlurmTaskCount, 0}, {envSlurmTaskMin, 0}, {envSlurmTaskStep, 1}} {
		v, err := num(kv.key, kv.def)
		if err != nil {
			return tables.Shard{}, "", err
		}
		vals[i] = v
	}
	id, count, first, step := vals[0], vals[1], vals[2], max(vals[3], 1)
	s := tables.Shard{Index: (id-first)/step + 1, Count: count}
	if err := s.Check(); err != nil || (id-first)%step != 0 {
		return tables.Shard{}, "", fmt.Errorf("Slurm array task %d (first %d, step %d, %d tasks) is not a shard: want a contiguous array such as --array=0-%d", id, first, step, count, count-1)
	}
	return s, fmt.Sprintf("from $%s=%d of %d tasks", envSlurmTaskID, id, count), nil
}

// exitError is an error with the exit status main uses for it.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// signalStop returns a channel closed on the first SIGINT or SIGTERM (after saying on stderr that
// the sweep stops at its next safe point), a function returning that signal (nil before), and one
// that stops listening. A second signal exits at once with status 128 + its number.
func signalStop(stderr io.Writer) (stop <-chan struct{}, received func() os.Signal, release func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	closed := make(chan struct{})
	got := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			got <- sig
			fmt.Fprintf(stderr, "\nreproduce: %v: stopping at the next safe point (after the epoch in progress); checkpoints are kept; a second signal quits at once\n", sig)
			close(closed)
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "reproduce: second %v: quitting now\n", sig)
			os.Exit(signalStatus(sig))
		case <-done:
		}
	}()
	var sig os.Signal
	received = func() os.Signal {
		select {
		case sig = <-got:
		default:
		}
		return sig
	}
	return closed, received, func() { signal.Stop(ch); close(done) }
}

// signalStatus is the shell's exit status for a process ended by sig: 128 + its number (130 for
// SIGINT, 143 for SIGTERM).
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// stoppedExit turns a sweep's error that wraps tables.ErrStopped into an exitError with the signal's
// status and the command that resumes; other errors pass through.
func stoppedExit(err error, sig os.Signal, command string) error {
	if !errors.Is(err, tables.ErrStopped) || sig == nil {
		return err
	}
	return &exitError{code: signalStatus(sig), err: fmt.Errorf("%w\nto resume: %s", err, command)}
}
