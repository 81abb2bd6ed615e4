package datasets

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestNamesOrder(t *testing.T) {
	names := Names()
	core := []string{"cora", "citeseer", "pubmed", "cs", "physics", "squirrel", "chameleon"}
	var got []string
	for _, n := range names {
		if slices.Contains(core, n) {
			got = append(got, n)
		}
	}
	if !slices.Equal(got, core) {
		t.Fatalf("Names() = %v, want the core sets in the order %v", names, core)
	}
	if names[0] != "cora" {
		t.Fatalf("Names() starts with %q, want cora", names[0])
	}
}

func TestDefaultRoot(t *testing.T) {
	t.Setenv(EnvData, "/some/data")
	if got := DefaultRoot(); got != "/some/data" {
		t.Fatalf("DefaultRoot() = %q with %s=/some/data", got, EnvData)
	}
	t.Setenv(EnvData, "")
	if got := DefaultRoot(); filepath.Base(got) != "geomix" && got != "geomix-data" {
		t.Fatalf("DefaultRoot() = %q without %s, want <user cache>/geomix", got, EnvData)
	}
	if got := (Options{Root: "/explicit"}).root(); got != "/explicit" {
		t.Fatalf("Options.Root ignored: %q", got)
	}
}
