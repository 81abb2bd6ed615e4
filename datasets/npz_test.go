package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseNPYRoundTripAndFortran(t *testing.T) {
	// A [2, 3] int64 matrix stored column-major: storage order is a00 a10 a01 a11 a02 a12.
	raw := npyOf(t, []int64{1, 4, 2, 5, 3, 6}, true, 2, 3)
	a, err := parseNPY(raw)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dtype != "<i8" || !a.Fortran || !reflect.DeepEqual(a.Shape, []int{2, 3}) {
		t.Fatalf("header parsed as %s fortran=%v shape %v", a.Dtype, a.Fortran, a.Shape)
	}
	vals, err := a.int64s()
	if err != nil {
		t.Fatal(err)
	}
	var rowMajor []int64
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			rowMajor = append(rowMajor, vals[a.rowMajorIndex(i, j)])
		}
	}
	if want := []int64{1, 2, 3, 4, 5, 6}; !reflect.DeepEqual(rowMajor, want) {
		t.Fatalf("row-major read %v, want %v", rowMajor, want)
	}
}

func TestNPZDamaged(t *testing.T) {
	dir := t.TempDir()
	good := npyOf(t, []int64{0, 1, 2}, false, 3)
	cases := []struct {
		name, want string
		write      func() string
		shape      []int
	}{
		{"not a zip", "not a readable .npz", func() string {
			p := filepath.Join(dir, "garbage.npz")
			_ = os.WriteFile(p, []byte("this is not a zip archive at all"), 0o644)
			return p
		}, []int{3}},
		{"missing member", "has no member labels.npy", func() string {
			return writeNPZ(t, dir, "missing.npz", false, map[string][]byte{"other": good})
		}, []int{3}},
		{"bad magic", "bad magic", func() string {
			bad := append([]byte("XNUMPY"), good[6:]...)
			return writeNPZ(t, dir, "magic.npz", false, map[string][]byte{"labels": bad})
		}, []int{3}},
		{"bad header", "shape is not a tuple", func() string {
			bad := []byte(strings.Replace(string(good), "'shape': (3,)", "'shape': [3,]", 1))
			return writeNPZ(t, dir, "header.npz", true, map[string][]byte{"labels": bad})
		}, []int{3}},
		{"truncated data", "needs 24 bytes of data, found 20", func() string {
			return writeNPZ(t, dir, "short.npz", false, map[string][]byte{"labels": good[:len(good)-4]})
		}, []int{3}},
		{"wrong shape", "expected dimension 0 to be 4", func() string {
			return writeNPZ(t, dir, "shape.npz", false, map[string][]byte{"labels": good})
		}, []int{4}},
		{"wrong rank", "expected rank 2", func() string {
			return writeNPZ(t, dir, "rank.npz", false, map[string][]byte{"labels": good})
		}, []int{3, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.write()
			npz, err := openNPZ(path)
			if err == nil {
				defer func() { _ = npz.Close() }()
				_, err = npz.array("labels", c.shape...)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want one naming %s and %q", err, path, c.want)
			}
		})
	}
}
