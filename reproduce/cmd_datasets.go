package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/internal/atomicfile"
)

func init() {
	register(command{
		name:    "datasets",
		summary: "load every data set present (or downloadable) and print its statistics",
		example: "go run ./reproduce datasets --names cora,citeseer --verify",
		run:     func(args []string) error { return runDatasets(args, os.Stdout, os.Stderr) },
	})
}

// datasetStats is one row of `reproduce datasets`; train/val/test are the sizes of the first split.
type datasetStats struct {
	Name          string  `json:"name"`
	Nodes         int     `json:"nodes"`
	Edges         int     `json:"edges"`
	Features      int     `json:"features"`
	Classes       int     `json:"classes"`
	Train         int     `json:"train"`
	Val           int     `json:"val"`
	Test          int     `json:"test"`
	Splits        int     `json:"splits"`
	EdgeHomophily float64 `json:"edge_homophily"`
	notes         string
}

// runDatasets implements `reproduce datasets [--data DIR] [--json] [--offline] [--verify]
// [--names a,b] [--raw-features] [--export DIR] [--pileup-events N]`, printing to stdout; without
// --names or --json, the Pileup files present under DATA/pileup/ follow the table (printPileupSamples).
// Without --names, data sets whose files are missing (and cannot be downloaded) are listed as
// absent on stderr, one line each with the reason; a data set named in --names that cannot be
// loaded, a data root given (--data, $GEOMIX_DATA) that does not exist, and any other load error
// (e.g. a corrupt file) fail the command.
func runDatasets(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("datasets", stderr)
	dataDir := fs.String("data", "", "data root (default $"+datasets.EnvData+", else the user cache "+datasets.DefaultRoot()+"); a root given that does not exist is an error")
	asJSON := fs.Bool("json", false, "print a JSON array instead of a table")
	offline := fs.Bool("offline", false, "never download; skip data sets whose files are missing")
	verify := fs.Bool("verify", false, "also check the sha256 of files already present (their size is always checked)")
	only := fs.String("names", "", "comma-separated data sets or graph files (.npz, edge-list directory) to list, each of which must load (default: all registered, see datasets.Names, absent ones listed on stderr)")
	files := fs.Bool("files", false, "list every raw file (path under the data root, size, sha256, URL) as a Markdown table, load nothing")
	export := fs.String("export", "", "also write each data set listed as DIR/<name>.npz, the arrays our trainers see (numpy; see datasets.Graph.WriteNPZ)")
	rawFeatures := fs.Bool("raw-features", false, "load features without the row normalisation (as the presets with --no_feat_norm do)")
	pileupEvents := fs.Int("pileup-events", 200, "events read per Pileup file present under DATA/pileup/ for its statistics (listed unless --names or --json)")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *files {
		printFiles(stdout)
		return nil
	}
	root, _, err := dataRoot(*dataDir)
	if err != nil {
		return err
	}
	opts := datasets.Options{Root: root, Offline: *offline, VerifyChecksums: *verify, RawFeatures: *rawFeatures, Progress: stderr}
	names := datasets.Names()
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	rows := []datasetStats{}
	absent := 0
	for _, name := range names {
		g, err := datasets.LoadNameOrPath(name, opts)
		if *only == "" && errors.Is(err, datasets.ErrMissing) {
			fmt.Fprintf(stderr, "absent %s: %v\n", name, err)
			absent++
			continue
		}
		if err != nil {
			return fmt.Errorf("loading %s: %w", name, err)
		}
		rows = append(rows, statsOf(g))
		if *export != "" {
			path := filepath.Join(*export, name+".npz")
			if err := atomicfile.Write(path, g.WriteNPZ); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "wrote %s\n", path)
		}
	}
	if absent > 0 {
		fmt.Fprintf(stderr, "%d of %d data sets absent from the data root %s (see README, 'Data')\n", absent, len(names), root)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if err := printStatsTable(stdout, rows); err != nil {
		return err
	}
	if *only != "" {
		return nil
	}
	return printPileupSamples(stdout, *dataDir, *pileupEvents)
}

// statsOf summarises g.
func statsOf(g *datasets.Graph) datasetStats {
	s := datasetStats{Name: g.Name, Nodes: g.NumNodes, Edges: g.NumEdges(), Features: g.NumFeatures(),
		Classes: g.NumClasses, Splits: len(g.Splits), EdgeHomophily: g.EdgeHomophily(), notes: g.Notes}
	if len(g.Splits) > 0 {
		s.Train, s.Val, s.Test = len(g.Splits[0].Train), len(g.Splits[0].Val), len(g.Splits[0].Test)
	}
	return s
}

// printStatsTable writes rows as an aligned table followed by each data set's notes.
func printStatsTable(w io.Writer, rows []datasetStats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tnodes\tedges\tfeatures\tclasses\ttrain\tval\ttest\tsplits\tedge homophily\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t\n", r.Name, r.Nodes, r.Edges, r.Features,
			r.Classes, r.Train, r.Val, r.Test, r.Splits, r.EdgeHomophily)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if r.notes != "" {
			fmt.Fprintf(w, "\n%s: %s\n", r.Name, r.notes)
		}
	}
	return nil
}

// printFiles writes datasets.Files as the Markdown table of docs/data.md.
func printFiles(w io.Writer) {
	fmt.Fprintln(w, "| data set | path under the data root | bytes | sha256 | canonical URL |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, f := range datasets.Files() {
		size, sum := "unknown", "unknown (never downloaded automatically: a copy could not be verified)"
		if f.Size > 0 {
			size = fmt.Sprint(f.Size)
		}
		if f.SHA256 != "" {
			sum = "`" + f.SHA256 + "`"
		}
		if f.ContentSHA256 != "" {
			size, sum = "varies", "`"+f.ContentSHA256+"` (of the decompressed content; copies differ in their gzip bytes)"
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s |\n", f.Dataset, f.Path, size, sum, f.URL)
	}
}
