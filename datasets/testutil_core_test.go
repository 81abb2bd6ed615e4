package datasets

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// coreDataRoot returns the real data root $GEOMIX_DATA (a relative value taken from the module
// root, see ResolveRoot), skipping the test when it is unset or missing.
func coreDataRoot(tb testing.TB) string {
	tb.Helper()
	if os.Getenv(EnvData) == "" {
		tb.Skipf("%s is not set: skipping the test on real data (CI sets it to ../shared/data)", EnvData)
	}
	root, err := ResolveRoot(os.Getenv(EnvData), "")
	if err == nil {
		_, err = os.Stat(root)
	}
	if err != nil {
		tb.Skipf("%s=%s is not readable (%v): skipping the test on real data", EnvData, os.Getenv(EnvData), err)
	}
	return root
}

// loadReal loads a real data set from $GEOMIX_DATA offline, skipping when its files are absent.
func loadReal(tb testing.TB, name string, opts Options) *Graph {
	tb.Helper()
	opts.Root, opts.Offline = coreDataRoot(tb), true
	g, err := Load(name, opts)
	if errors.Is(err, ErrMissing) {
		tb.Skipf("%s is not in the data root: %v", name, err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// checkSplit fails unless s is sorted, inside [0, n), and its three sets are disjoint.
func checkSplit(t *testing.T, s Split, n int) {
	t.Helper()
	seen := make([]int8, n)
	for k, set := range [][]int32{s.Train, s.Val, s.Test} {
		for i, v := range set {
			if v < 0 || int(v) >= n {
				t.Fatalf("set %d holds node %d outside [0, %d)", k, v, n)
			}
			if i > 0 && set[i-1] >= v {
				t.Fatalf("set %d is not strictly increasing at position %d", k, i)
			}
			if seen[v] != 0 {
				t.Fatalf("node %d is in two sets", v)
			}
			seen[v] = int8(k + 1)
		}
	}
}

// rowSums returns the sum of every row of m.
func rowSums(m *CSR) []float64 {
	out := make([]float64, m.NumRows)
	for i := range out {
		for k := m.RowPtr[i]; k < m.RowPtr[i+1]; k++ {
			out[i] += float64(m.Values[k])
		}
	}
	return out
}

// checkNormalized fails unless every row of norm is raw / max(rowsum(raw), 1) (minRowSum 1) or
// raw / rowsum(raw) for non-zero rows (minRowSum 0).
func checkNormalized(t *testing.T, norm, raw *CSR, minRowSum float64) {
	t.Helper()
	rs := rowSums(raw)
	for i := 0; i < raw.NumRows; i++ {
		div := rs[i]
		if div < minRowSum || div == 0 {
			div = max(minRowSum, 1)
		}
		for k := raw.RowPtr[i]; k < raw.RowPtr[i+1]; k++ {
			want := float64(raw.Values[k]) / div
			if norm.ColIdx[k] != raw.ColIdx[k] || math.Abs(float64(norm.Values[k])-want) > 1e-6 {
				t.Fatalf("row %d entry %d: %v at column %d, want %v at %d", i, k, norm.Values[k], norm.ColIdx[k], want, raw.ColIdx[k])
			}
		}
	}
}

// writeNPZ writes members (name -> .npy bytes) as an .npz archive in dir; deflate picks compression.
func writeNPZ(t *testing.T, dir, name string, deflate bool, members map[string][]byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for member, data := range members {
		method := zip.Store
		if deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: member + ".npy", Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// npyOf encodes values (int64, float32 or bool slices) with the given shape as .npy bytes.
func npyOf(t *testing.T, values any, fortran bool, shape ...int) []byte {
	t.Helper()
	a := &ndarray{Shape: shape, Fortran: fortran}
	var buf bytes.Buffer
	switch v := values.(type) {
	case []int64:
		a.Dtype = "<i8"
		_ = binary.Write(&buf, binary.LittleEndian, v)
	case []int32:
		a.Dtype = "<i4"
		_ = binary.Write(&buf, binary.LittleEndian, v)
	case []float32:
		a.Dtype = "<f4"
		_ = binary.Write(&buf, binary.LittleEndian, v)
	case []bool:
		a.Dtype = "|b1"
		_ = binary.Write(&buf, binary.LittleEndian, v)
	default:
		t.Fatalf("npyOf: unsupported %T", values)
	}
	a.Data = buf.Bytes()
	return npyBytes(a)
}

// npyBytes encodes a as a version 1.0 .npy file; tests use it to write fixtures.
func npyBytes(a *ndarray) []byte {
	dims := make([]string, len(a.Shape))
	for i, d := range a.Shape {
		dims[i] = strconv.Itoa(d)
	}
	shape := strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	fortran := "False"
	if a.Fortran {
		fortran = "True"
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }", a.Dtype, fortran, shape)
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	var buf bytes.Buffer
	buf.WriteString(npyMagic)
	buf.Write([]byte{1, 0})
	_ = binary.Write(&buf, binary.LittleEndian, uint16(len(header)))
	buf.WriteString(header)
	buf.Write(a.Data)
	return buf.Bytes()
}
