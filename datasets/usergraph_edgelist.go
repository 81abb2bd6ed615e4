package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// FromEdgeList reads a graph from the directory dir holding:
//
//   - edges.csv: one edge per line, "src,dst" (node ids in [0, N); further columns are ignored);
//   - features.csv (one line of F numbers per node) or features.npy ([N, F]);
//   - labels.csv (one integer class id in [0, C) per line, node i on line i) or labels.npy ([N]);
//   - optionally train.csv, val.csv and test.csv together: the split's node ids, one per line.
//
// N is the number of feature rows. In the .csv files values are separated by commas, tabs or
// spaces, empty lines and lines starting with '#' are skipped, and a first line that does not start
// with a number is a header. Edges are made undirected, self-loops and duplicates removed,
// isolated nodes kept; features are row-normalised unless opts.RawFeatures. Without the split files
// the split is drawn per class (see Options.TrainPerClass, ValPerClass, Seed). Graph.Notes records
// every change; the graph is validated (Graph.Validate). Name is the directory's base name.
func FromEdgeList(dir string, opts Options) (*Graph, error) {
	features, err := readFeatureFile(dir)
	if err != nil {
		return nil, err
	}
	n := features.NumRows
	labels, numClasses, err := readLabelFile(dir, n)
	if err != nil {
		return nil, err
	}
	var src, dst []int32
	edgesPath := filepath.Join(dir, "edges.csv")
	err = scanRows(edgesPath, func(line int, fields []string) error {
		if len(fields) < 2 {
			return fmt.Errorf("line %d has %d value(s), expected src,dst", line, len(fields))
		}
		var ids [2]int32
		for i := range ids {
			if ids[i], err = parseNode(fields[i], n); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
		}
		src, dst = append(src, ids[0]), append(dst, ids[1])
		return nil
	})
	if err != nil {
		return nil, err
	}
	splits, err := readSplitFiles(dir, n)
	if err != nil {
		return nil, err
	}
	return finishUserGraph(dir, n, features, src, dst, labels, numClasses, splits, opts)
}

// readFeatureFile reads dir/features.csv or dir/features.npy as an [N, F] CSR.
func readFeatureFile(dir string) (*CSR, error) {
	if a, path, err := readNPYIfPresent(filepath.Join(dir, "features.npy")); err != nil || a != nil {
		if err != nil {
			return nil, err
		}
		if err := a.checkShape(-1, -1); err != nil {
			return nil, fmt.Errorf("datasets: %s: %w", path, err)
		}
		x, err := a.float32s()
		if err != nil {
			return nil, fmt.Errorf("datasets: %s: %w", path, err)
		}
		if a.Fortran {
			x = transposeFortran(x, a.Shape[0], a.Shape[1])
		}
		return denseToCSR(a.Shape[0], a.Shape[1], x), nil
	}
	path := filepath.Join(dir, "features.csv")
	var x []float32
	cols := -1
	err := scanRows(path, func(line int, fields []string) error {
		if cols < 0 {
			cols = len(fields)
		}
		if len(fields) != cols {
			return fmt.Errorf("line %d has %d values, expected %d like the first row", line, len(fields), cols)
		}
		for _, f := range fields {
			v, err := strconv.ParseFloat(f, 32)
			if err != nil {
				return fmt.Errorf("line %d: %q is not a number", line, f)
			}
			x = append(x, float32(v))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w (expected features.csv or features.npy)", err)
	}
	if cols < 0 {
		return nil, fmt.Errorf("datasets: %s has no rows, expected one line of features per node", path)
	}
	return denseToCSR(len(x)/cols, cols, x), nil
}

// readLabelFile reads dir/labels.csv or dir/labels.npy: n class ids, and the number of classes.
func readLabelFile(dir string, n int) ([]int32, int, error) {
	a, path, err := readNPYIfPresent(filepath.Join(dir, "labels.npy"))
	if err != nil {
		return nil, 0, err
	}
	var vals []int64
	if a != nil {
		if err := a.checkShape(-1); err == nil {
			vals, err = a.int64s()
		}
		if err != nil {
			return nil, 0, fmt.Errorf("datasets: %s: %w", path, err)
		}
	} else {
		path = filepath.Join(dir, "labels.csv")
		err := scanRows(path, func(line int, fields []string) error {
			if len(fields) != 1 {
				return fmt.Errorf("line %d has %d values, expected one class id", line, len(fields))
			}
			v, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				return fmt.Errorf("line %d: %q is not an integer class id", line, fields[0])
			}
			vals = append(vals, v)
			return nil
		})
		if err != nil {
			return nil, 0, fmt.Errorf("%w (expected labels.csv or labels.npy)", err)
		}
	}
	if len(vals) != n {
		return nil, 0, fmt.Errorf("datasets: %s holds %d labels, expected %d (one per feature row)", path, len(vals), n)
	}
	labels, numClasses, err := classIDs(vals)
	if err != nil {
		return nil, 0, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return labels, numClasses, nil
}

// readSplitFiles reads dir/train.csv, val.csv and test.csv (node ids, one per line) as one split;
// none of them present means no stored split (nil), some but not all is an error.
func readSplitFiles(dir string, n int) ([]Split, error) {
	names := []string{"train.csv", "val.csv", "test.csv"}
	var sets [3][]int32
	present := 0
	for i, name := range names {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		present++
		err := scanRows(path, func(line int, fields []string) error {
			if len(fields) != 1 {
				return fmt.Errorf("line %d has %d values, expected one node id", line, len(fields))
			}
			v, err := parseNode(fields[0], n)
			if err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			sets[i] = append(sets[i], v)
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(sets[i])
	}
	switch present {
	case 0:
		return nil, nil
	case len(names):
	default:
		return nil, fmt.Errorf("datasets: %s has %d of train.csv, val.csv and test.csv, expected all three or none", dir, present)
	}
	split := Split{Train: sets[0], Val: sets[1], Test: sets[2]}
	if err := checkDisjoint(dir, 0, split); err != nil {
		return nil, err
	}
	return []Split{split}, nil
}

// parseNode parses a node id in [0, n).
func parseNode(s string, n int) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v >= int64(n) {
		return 0, fmt.Errorf("%q is not a node id in [0, %d)", s, n)
	}
	return int32(v), nil
}

// readNPYIfPresent reads the .npy file at path; (nil, path, nil) when there is none.
func readNPYIfPresent(path string) (*ndarray, string, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("datasets: %w", err)
	}
	a, err := parseNPY(raw)
	if err != nil {
		return nil, path, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return a, path, nil
}

// scanRows calls fn with the line number and fields of every data line of the text table at path:
// fields separated by commas, tabs or spaces; empty lines and lines starting with '#' skipped; a
// first data line whose first field is not a number is a header and skipped too. Errors name path.
func scanRows(path string, fn func(line int, fields []string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer func() { _ = file.Close() }()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<28)
	first := true
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
		if first {
			first = false
			if _, err := strconv.ParseFloat(fields[0], 64); err != nil {
				continue
			}
		}
		if err := fn(line, fields); err != nil {
			return fmt.Errorf("datasets: %s: %w", path, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("datasets: reading %s: %w", path, err)
	}
	return nil
}
