package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	module := filepath.Dir(wd) // this package's folder is one below the module root
	cases := []struct{ dir, base, want string }{
		{"", "/x", ""},
		{"/data/geomix/", "/x", "/data/geomix"},
		{"../shared/data", "/work/main", "/work/shared/data"},
		{"data", "/work/main/results", "/work/main/results/data"},
		{"../shared/data", "", filepath.Join(filepath.Dir(module), "shared", "data")},
	}
	for _, c := range cases {
		if got, err := ResolveRoot(c.dir, c.base); err != nil || got != c.want {
			t.Errorf("ResolveRoot(%q, %q) = %q, %v; want %q", c.dir, c.base, got, err, c.want)
		}
	}
}

// TestRelativeEnvRootFromPackageTest sets $GEOMIX_DATA to a path relative to the module root, as
// CI does, and loads from this package's folder: DefaultRoot takes it from the module root.
func TestRelativeEnvRootFromPackageTest(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	module := filepath.Dir(wd)
	root := t.TempDir()
	rel, err := filepath.Rel(module, root)
	if err != nil {
		t.Fatal(err)
	}
	path := writeUserNPZ(t, root, "mine.npz", true, nil)
	t.Setenv(EnvData, rel)
	if got := DefaultRoot(); got != root {
		t.Fatalf("DefaultRoot() = %q with %s=%q, want %q", got, EnvData, rel, root)
	}
	if _, err := LoadNameOrPath(filepath.Join(DefaultRoot(), filepath.Base(path)), Options{TrainPerClass: 1, ValPerClass: 1}); err != nil {
		t.Fatal(err)
	}
	// A registered data set reads from the resolved root: Cora is missing there, and the error
	// names the file under the absolute root, not under the package folder.
	_, err = Load("cora", Options{Offline: true})
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), filepath.Join(root, "planetoid", "ind.cora.x")) {
		t.Errorf("got %v, want ErrMissing naming %s", err, filepath.Join(root, "planetoid"))
	}
}

// TestRelativeEnvRootOnRealData loads Cora with $GEOMIX_DATA relative to the module root.
func TestRelativeEnvRootOnRealData(t *testing.T) {
	abs := coreDataRoot(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(wd), abs)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvData, rel)
	g, err := Load("cora", Options{Offline: true})
	if err != nil {
		t.Fatalf("%s=%s from %s: %v", EnvData, rel, wd, err)
	}
	if g.NumNodes != 2708 {
		t.Errorf("got %v, want Cora's 2708 nodes", g)
	}
}

func TestCheckRoot(t *testing.T) {
	dir := t.TempDir()
	if err := CheckRoot(dir); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(dir, "typo")
	if err := CheckRoot(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("got %v, want an error naming %s", err, missing)
	}
	file := writeFixtureBytes(t, dir, "file", []byte("x"))
	if err := CheckRoot(file); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("got %v, want an error saying %s is a file", err, file)
	}
}
