package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/reproduce/tables"
)

// TestShardFlags: --shard wins; without it a Slurm array task or a Kubernetes Indexed Job pod is
// its shard; malformed or incomplete values are errors naming them.
func TestShardFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want tables.Shard
		err  string
	}{
		{nil, nil, tables.Shard{}, ""},
		{[]string{"--shard", "2/3"}, map[string]string{envJobIndex: "0", envShards: "3"}, tables.Shard{Index: 2, Count: 3}, ""},
		{nil, map[string]string{envSlurmTaskID: "4", envSlurmTaskCount: "3", envSlurmTaskMin: "3"}, tables.Shard{Index: 2, Count: 3}, ""},
		{nil, map[string]string{envSlurmTaskID: "5", envSlurmTaskCount: "3", envSlurmTaskMin: "1", envSlurmTaskStep: "2"}, tables.Shard{Index: 3, Count: 3}, ""},
		{nil, map[string]string{envJobIndex: "0", envShards: "4"}, tables.Shard{Index: 1, Count: 4}, ""},
		{[]string{"--shards", "2"}, map[string]string{envJobIndex: "1"}, tables.Shard{Index: 2, Count: 2}, ""},
		{[]string{"--shard", "0/3"}, nil, tables.Shard{}, `--shard "0/3": want i/n with 1 <= i <= n`},
		{[]string{"--shard", "4/3"}, nil, tables.Shard{}, "want i/n"},
		{[]string{"--shard", "two"}, nil, tables.Shard{}, "want i/n"},
		{[]string{"--shard", "1/3", "--shards", "2"}, nil, tables.Shard{}, "disagree"},
		{nil, map[string]string{envJobIndex: "1"}, tables.Shard{}, "pass --shards N or set $GEOMIX_SHARDS"},
		{[]string{"--shards", "2"}, map[string]string{envJobIndex: "2"}, tables.Shard{}, "JOB_COMPLETION_INDEX = 2 with 2 shards"},
		{[]string{"--shards", "2"}, nil, tables.Shard{}, "which shard is this?"},
		{nil, map[string]string{envSlurmTaskID: "7", envSlurmTaskCount: "3"}, tables.Shard{}, "Slurm array task 7"},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := addShardFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		got, _, err := f.fromFlagsOrEnv(func(k string) string { return c.env[k] })
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%v %v: got %v, %v; want %v", c.args, c.env, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v %v: got %v, %v; want an error with %q", c.args, c.env, got, err, c.err)
		}
	}
}
