package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/methods"
	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/scalebench"
	"github.com/geomix-go/geomix/reproduce/tables"
)

// scaleArgs reports whether args ask for `reproduce bench --scale` and returns them without the
// flag.
func scaleArgs(args []string) ([]string, bool) {
	i := slices.IndexFunc(args, func(a string) bool { return a == "--scale" || a == "-scale" })
	if i < 0 {
		return args, false
	}
	return slices.Delete(slices.Clone(args), i, i+1), true
}

// scaleReport is results/scale/scale.json: the points and the fits.
type scaleReport struct {
	// The graphs' and the model's shape (scalebench's constants).
	Degree    int     `json:"degree"`
	Features  int     `json:"features"`
	Classes   int     `json:"classes"`
	Homophily float64 `json:"homophily"`
	Hidden    int     `json:"hidden"`
	Layers    int     `json:"layers"`
	Presets   string  `json:"presets"`
	// Points are sorted by nodes, then method; each measured in a child process of its own.
	Points []*scalePoint `json:"points"`
	// Fits hold per method the exponent of ms/epoch against directed edges.
	Fits []scaleFit `json:"fits"`
}

// scalePoint is a measured point with where it was measured.
type scalePoint struct {
	*scalebench.Point
	Epochs      int    `json:"epochs"`
	Seed        uint64 `json:"seed"`
	GOMAXPROCS  int    `json:"gomaxprocs"`
	GitRevision string `json:"git_revision"`
	MeasuredAt  string `json:"measured_at"`
	// GOGC and GOMEMLIMIT are the Go collector's settings of the child's environment, if any.
	GOGC       string `json:"gogc,omitempty"`
	GOMEMLIMIT string `json:"gomemlimit,omitempty"`
}

// scaleFit is the least-squares line through one method's points on log-log axes, over every
// point and over the points from fitFromEdges directed edges on (where fixed costs per epoch no
// longer count).
type scaleFit struct {
	Method       string  `json:"method"`
	Points       int     `json:"points"`
	Exponent     float64 `json:"exponent"`
	Prefactor    float64 `json:"prefactor_ms"`
	LargePoints  int     `json:"points_large,omitempty"`
	ExponentFrom float64 `json:"exponent_large,omitempty"`
	// CPUExponent and CPUExponentFrom fit the CPU time per epoch the same ways.
	CPUExponent     float64 `json:"cpu_exponent"`
	CPUExponentFrom float64 `json:"cpu_exponent_large,omitempty"`
}

// fitFromEdges is where the second fit starts: 10^6 directed edges.
const fitFromEdges = 1e6

// runBenchScale implements `reproduce bench --scale`: every (size, method) in a child process of
// its own (`--point`), the report merged into --out-dir's scale.json after each point.
func runBenchScale(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	nodesFlag := fs.String("nodes", "1000,4000,16000,64000,160000,320000,640000", "comma-separated graph sizes (nodes, multiples of 10); ogbn-products' size is 2400000")
	methodsFlag := fs.String("methods", "gcn,geomix1,geomix2,geomix3", "comma-separated methods: "+strings.Join(geomix.Methods(), ", "))
	epochs := fs.Int("epochs", 3, "timed epochs per point, after one untimed warm-up epoch")
	seed := fs.Uint64("seed", 1, "seed of the graphs")
	outDir := fs.String("out-dir", filepath.Join("results", "scale"), "folder of scale.json, scale.md and scale.html; points already there are kept unless measured again")
	maxRSS := fs.Float64("max-rss-gib", 0, "stop a point whose resident memory passes this many GiB (0: no limit; Linux only)")
	reportOnly := fs.Bool("report-only", false, "measure nothing: rewrite scale.md and scale.html from --out-dir's scale.json")
	point := fs.Bool("point", false, "measure one point in this process and print it as JSON (what the parent runs in each child)")
	memProfile := fs.String("memprofile", "", "with --point: write a heap profile (live objects at the last collection) after the last epoch to this file")
	cpuProfile := fs.String("cpuprofile", "", "with --point: write a CPU profile of the whole point (generation, setup, epochs) to this file")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if *epochs < 1 {
		return fmt.Errorf("--epochs %d: want at least 1", *epochs)
	}
	sizes, err := parseSizes(*nodesFlag)
	if err != nil {
		return err
	}
	methodList := strings.Split(*methodsFlag, ",")
	for _, m := range methodList {
		if _, err := methods.New(m); err != nil {
			return err
		}
	}
	if *point {
		if len(sizes) != 1 || len(methodList) != 1 {
			return fmt.Errorf("--point measures one size and one method, got --nodes %q --methods %q", *nodesFlag, *methodsFlag)
		}
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				return err
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		return runScalePoint(sizes[0], methodList[0], *epochs, *seed, *memProfile, stdout)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench --scale runs itself per point: %w", err)
	}
	report, err := loadScaleReport(filepath.Join(*outDir, "scale.json"))
	if err != nil {
		return err
	}
	if *reportOnly {
		report.refit()
		if err := report.write(*outDir); err != nil {
			return err
		}
		return report.writeMarkdown(stdout)
	}
	for _, n := range sizes {
		for _, m := range methodList {
			fmt.Fprintf(stderr, "bench --scale: %d nodes, %s, %d epochs in a child process\n", n, m, *epochs)
			p, err := runScaleChild(self, n, m, *epochs, *seed, *maxRSS, stderr)
			if err != nil {
				return fmt.Errorf("%d nodes, %s: %w", n, m, err)
			}
			fmt.Fprintf(stderr, "  %d directed edges: %.1f ms/epoch, peak RSS %.0f MiB, generation %.1f s, setup %.1f s\n",
				p.Edges, p.MillisPerEpoch, p.PeakRSSMiB, p.GenerateSeconds, p.SetupSeconds)
			report.add(p)
			if err := report.write(*outDir); err != nil {
				return err
			}
		}
	}
	return report.writeMarkdown(stdout)
}

// parseSizes parses the --nodes list.
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1000 || n%scalebench.Classes != 0 {
			return nil, fmt.Errorf("--nodes %q: want sizes of at least 1000 nodes, multiples of %d", f, scalebench.Classes)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// runScalePoint measures one point in this process and prints it as JSON.
func runScalePoint(n int, method string, epochs int, seed uint64, memProfile string, stdout io.Writer) error {
	backend, err := scalebench.NewBackend(true)
	if err != nil {
		return err
	}
	p, err := scalebench.RunPoint(backend, n, method, epochs, seed)
	if err != nil {
		return err
	}
	if memProfile != "" {
		if err := atomicfile.Write(memProfile, pprof.WriteHeapProfile); err != nil {
			return err
		}
	}
	return json.NewEncoder(stdout).Encode(&scalePoint{Point: p, Epochs: epochs, Seed: seed, GOMAXPROCS: runtime.GOMAXPROCS(0),
		GitRevision: tables.GitRevision("."), MeasuredAt: time.Now().UTC().Format(time.RFC3339),
		GOGC: os.Getenv("GOGC"), GOMEMLIMIT: os.Getenv("GOMEMLIMIT")})
}

// runScaleChild runs one point in a child process (self bench --scale --point ...) and returns it
// with the child's peak resident memory. Past maxRSSGiB (when > 0) it stops the child.
func runScaleChild(self string, n int, method string, epochs int, seed uint64, maxRSSGiB float64, stderr io.Writer) (*scalePoint, error) {
	cmd := exec.Command(self, "bench", "--scale", "--point", "--nodes", strconv.Itoa(n), "--methods", method,
		"--epochs", strconv.Itoa(epochs), "--seed", strconv.FormatUint(seed, 10))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exceeded := watchRSS(cmd.Process, maxRSSGiB)
	err := cmd.Wait()
	if peak := exceeded(); peak > 0 {
		return nil, fmt.Errorf("stopped at %.1f GiB resident, over --max-rss-gib %g", peak, maxRSSGiB)
	}
	if err != nil {
		return nil, fmt.Errorf("child process: %w", err)
	}
	var p scalePoint
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		return nil, fmt.Errorf("child process printed %q, want a point as JSON: %w", out.String(), err)
	}
	p.PeakRSSMiB = peakRSSMiB(cmd.ProcessState)
	return &p, nil
}

// loadScaleReport reads the report at path, or returns an empty one when there is none.
func loadScaleReport(path string) (*scaleReport, error) {
	r := &scaleReport{Degree: scalebench.Degree, Features: scalebench.Features, Classes: scalebench.Classes, Homophily: scalebench.Homophily,
		Hidden: scalebench.Hidden, Layers: scalebench.Layers, Presets: scalebench.PresetDataset}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	} else if err != nil {
		return nil, err
	}
	var old scaleReport
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if old.Degree != r.Degree || old.Features != r.Features || old.Classes != r.Classes || old.Homophily != r.Homophily ||
		old.Hidden != r.Hidden || old.Layers != r.Layers || old.Presets != r.Presets {
		return nil, fmt.Errorf("%s holds points of other graphs or models (degree %d, %d features, %d classes, p %g, hidden %d, %d layers, %s presets); move it away",
			path, old.Degree, old.Features, old.Classes, old.Homophily, old.Hidden, old.Layers, old.Presets)
	}
	r.Points = old.Points
	return r, nil
}

// add puts p in the report, replacing a point of the same size and method.
func (r *scaleReport) add(p *scalePoint) {
	r.Points = slices.DeleteFunc(r.Points, func(q *scalePoint) bool { return q.Nodes == p.Nodes && q.Method == p.Method })
	r.Points = append(r.Points, p)
	slices.SortFunc(r.Points, func(a, b *scalePoint) int {
		if a.Nodes != b.Nodes {
			return a.Nodes - b.Nodes
		}
		return strings.Compare(a.Method, b.Method)
	})
	r.refit()
}

// refit fits every method's points (see scaleFit).
func (r *scaleReport) refit() {
	r.Fits = nil
	for _, m := range r.methods() {
		var edges, millis, cpu, largeEdges, largeMillis, largeCPU []float64
		for _, q := range r.Points {
			if q.Method == m {
				edges, millis, cpu = append(edges, float64(q.Edges)), append(millis, q.MillisPerEpoch), append(cpu, q.CPUMillisPerEpoch)
				if q.Edges >= fitFromEdges {
					largeEdges, largeMillis, largeCPU = append(largeEdges, float64(q.Edges)), append(largeMillis, q.MillisPerEpoch), append(largeCPU, q.CPUMillisPerEpoch)
				}
			}
		}
		exponent, prefactor, err := scalebench.Fit(edges, millis)
		if err != nil {
			continue // a single size: no fit yet
		}
		f := scaleFit{Method: m, Points: len(edges), Exponent: exponent, Prefactor: prefactor}
		f.CPUExponent, _, _ = scalebench.Fit(edges, cpu)
		if b, _, err := scalebench.Fit(largeEdges, largeMillis); err == nil {
			f.LargePoints, f.ExponentFrom = len(largeEdges), b
			f.CPUExponentFrom, _, _ = scalebench.Fit(largeEdges, largeCPU)
		}
		r.Fits = append(r.Fits, f)
	}
}

// methods lists the report's methods in the order of geomix.Methods.
func (r *scaleReport) methods() []string {
	var out []string
	for _, m := range geomix.Methods() {
		if slices.ContainsFunc(r.Points, func(p *scalePoint) bool { return p.Method == m }) {
			out = append(out, m)
		}
	}
	return out
}

// write saves scale.json, scale.md and the chart scale.html in dir, atomically.
func (r *scaleReport) write(dir string) error {
	if err := atomicfile.Write(filepath.Join(dir, "scale.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "scale.md"), r.writeMarkdown); err != nil {
		return err
	}
	chart, err := r.chart()
	if err != nil || chart == nil {
		return err
	}
	return chart.Save(filepath.Join(dir, "scale.html"))
}
