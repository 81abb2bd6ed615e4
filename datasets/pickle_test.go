package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// numpyPickle is a Python-2 protocol-2 pickle of numpy.array([[1, 0], [0, 1]], dtype=int32), with
// the opcode sequence of the Planetoid ind.*.y files.
const numpyPickle = "\x80\x02cnumpy.core.multiarray\n_reconstruct\nq\x01cnumpy\nndarray\nq\x02K\x00\x85U\x01b\x87Rq\x03" +
	"(K\x01K\x02K\x02\x86cnumpy\ndtype\nq\x04U\x02i4K\x00K\x01\x87Rq\x05(K\x03U\x01<NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb" +
	"\x89T\x10\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00tb."

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file.pkl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUnpickleNumpyArray(t *testing.T) {
	v, err := unpickle(writeTemp(t, numpyPickle))
	if err != nil {
		t.Fatal(err)
	}
	a, ok := v.(*ndarray)
	if !ok {
		t.Fatalf("got %T, want *ndarray", v)
	}
	vals, err := a.int64s()
	if err != nil {
		t.Fatal(err)
	}
	if a.Dtype != "<i4" || !reflect.DeepEqual(a.Shape, []int{2, 2}) || !reflect.DeepEqual(vals, []int64{1, 0, 0, 1}) {
		t.Fatalf("got dtype %s shape %v values %v, want <i4 [2 2] [1 0 0 1]", a.Dtype, a.Shape, vals)
	}
	labels, classes, err := loadOneHot(writeTemp(t, numpyPickle), 2, 2)
	if err != nil || classes != 2 || !reflect.DeepEqual(labels, []int32{0, 1}) {
		t.Fatalf("loadOneHot = %v, %d, %v; want [0 1], 2", labels, classes, err)
	}
}

func TestUnpickleRejectsDamage(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"huge BINSTRING length", "\x80\x02T\xff\xff\xff\x7fabc.", "announces 2147483647 bytes"},
		{"huge BINUNICODE8 length", "\x80\x04\x8d\x00\x00\x00\x00\x00\x00\x00\x80.", "announces"},
		{"huge FRAME", "\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\xffK\x01.", "frame"},
		{"no STOP", "\x80\x02K\x01", "no STOP"},
		{"unknown opcode", "\x80\x02\xff.", "unknown opcode 0xff"},
		{"unterminated GLOBAL", "\x80\x02cnumpy", "unterminated"},
		{"unsupported class", "\x80\x02cos\nsystem\n.", "unsupported class os.system"},
		{"short array data", strings.Replace(numpyPickle, "T\x10\x00\x00\x00\x01\x00\x00\x00", "T\x0c\x00\x00\x00", 1),
			"needs 16 bytes of data, found 12"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.data)
			_, err := unpickle(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %s and %q", err, path, c.want)
			}
		})
	}
}
