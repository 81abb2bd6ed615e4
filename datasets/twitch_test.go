package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFixture writes content to name under dir, creating folders, and returns its path.
func writeFixture(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTwitchRegions(t *testing.T) {
	root := coreDataRoot(t)
	// Published counts: nodes (distinct new_id) and edge-file lines (the MUSAE release).
	want := map[string][2]int{
		"DE": {9498, 153138}, "ENGB": {7126, 35324}, "ES": {4648, 59382}, "FR": {6549, 112666},
		"PTBR": {1912, 31299}, "RU": {4385, 37304}, "TW": {2772, 63462},
	}
	for _, region := range twitchRegions {
		g, err := Load("twitch-"+strings.ToLower(region), Options{Root: root, Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		w := want[region]
		if g.NumNodes != w[0] || g.NumEdges() != 2*w[1] || g.NumFeatures() != 3170 || g.NumClasses != 2 {
			t.Errorf("%s: got %v, want %d nodes, %d edges, 3170 features, 2 classes", region, g, w[0], 2*w[1])
		}
		for i := range g.Src {
			if g.Src[i] == g.Dst[i] {
				t.Fatalf("%s: self-loop at node %d", region, g.Src[i])
			}
		}
		for i := 0; i < g.NumNodes; i++ {
			var sum float32
			for k := g.Features.RowPtr[i]; k < g.Features.RowPtr[i+1]; k++ {
				sum += g.Features.Values[k]
			}
			if sum < 0.9999 || sum > 1.0001 {
				t.Fatalf("%s: row %d sums to %v after normalisation, want 1", region, i, sum)
			}
		}
		s := g.Splits[0]
		if len(s.Train) != w[0]/2 || len(s.Val) != w[0]/4 || len(s.Train)+len(s.Val)+len(s.Test) != w[0] {
			t.Errorf("%s: split %d/%d/%d, want 50/25/25 of %d", region, len(s.Train), len(s.Val), len(s.Test), w[0])
		}
	}
	fr, err := Load("twitch-fr", Options{Root: root, Offline: true, RawFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fr.Notes, "6551 rows for 6549 users: new_id 1018, 3754 repeated") || strings.Contains(fr.Notes, "no entry") {
		t.Errorf("FR notes do not report the duplicated target rows: %q", fr.Notes)
	}
	// FR new_id 1018 and 3754 are mature (their target rows say True).
	if fr.Labels[1018] != 1 || fr.Labels[3754] != 1 {
		t.Errorf("FR labels of the duplicated users = %d, %d, want 1, 1", fr.Labels[1018], fr.Labels[3754])
	}
	if v := fr.Features.Values[0]; v != 1 {
		t.Errorf("raw FR feature value %v, want 1", v)
	}
}

func TestTwitchOOD(t *testing.T) {
	root := coreDataRoot(t)
	o, err := LoadTwitchOOD(Options{Root: root, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if o.NumNodes != 9498+7126+4648+6549+1912+4385 || o.Features.NumRows != o.NumNodes || len(o.Labels) != o.NumNodes {
		t.Fatalf("union: %v", o.Graph)
	}
	if o.NumEdges() != 2*(153138+35324+59382+112666+31299+37304) {
		t.Errorf("union has %d edges", o.NumEdges())
	}
	s := o.Splits[0]
	if len(s.Train) != 10636 || len(s.Val) != 5318 || len(s.Test) != 5318 {
		t.Errorf("in-distribution split %d/%d/%d, want 10636/5318/5318", len(s.Train), len(s.Val), len(s.Test))
	}
	if s.Test[len(s.Test)-1] >= 21272 || s.Train[len(s.Train)-1] >= 21272 {
		t.Errorf("in-distribution split reaches past DE+ENGB+ES (21272 nodes)")
	}
	names := []string{}
	for _, set := range o.ExtraTests {
		names = append(names, set.Name)
	}
	if !slices.Equal(names, []string{"FR", "PTBR", "RU"}) || len(o.ExtraTests[0].Nodes) != 6549 || o.ExtraTests[0].Nodes[0] != 21272 ||
		o.ExtraTests[2].Nodes[len(o.ExtraTests[2].Nodes)-1] != int32(o.NumNodes-1) {
		t.Errorf("OOD sets %v, FR starts at %d", names, o.ExtraTests[0].Nodes[0])
	}
	if !strings.Contains(o.Notes, "FR [21272, 27821)") || !strings.Contains(o.Notes, "new_id 1018, 3754") {
		t.Errorf("OOD notes lack the FR node range or its duplicated rows: %q", o.Notes)
	}
	// Edges stay within their region: FR's first node (21272) only links to FR nodes.
	for i := range o.Src {
		if (o.Src[i] >= 21272) != (o.Dst[i] >= 21272) {
			t.Fatalf("edge %d->%d crosses the in-distribution/OOD boundary", o.Src[i], o.Dst[i])
		}
	}
	again, err := LoadTwitchOOD(Options{Root: root, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	other, err := LoadTwitchOOD(Options{Root: root, Offline: true, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Splits[0].Train, s.Train) || slices.Equal(other.Splits[0].Train, s.Train) {
		t.Errorf("the split is not a function of the seed")
	}
}

func TestTwitchDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	header := "id,days,mature,views,partner,new_id\n"
	cases := []struct {
		name, content, wantErr string
		parse                  func(path string) error
	}{
		{"conflicting duplicate", header + "1,2,True,3,False,0\n2,2,False,3,False,1\n1,2,False,3,False,0\n", "new_id 0 is on line 2 and line 4 with different mature", twitchParseTargetsErr},
		{"bad label", header + "1,2,Yes,3,False,0\n", "line 2: mature \"Yes\", expected True or False", twitchParseTargetsErr},
		{"gap in ids", header + "1,2,True,3,False,0\n2,2,True,3,False,2\n", "no row for new_id 1", twitchParseTargetsErr},
		{"truncated target", header + "1,2,True,3,False,0\n2,2,Tr", "wrong number of fields", twitchParseTargetsErr},
		{"truncated json", `{"0": [1, 2], "1": [3`, "invalid JSON at byte", twitchParseFeaturesErr},
		{"bad game id", `{"0": [1, 2], "1": [3170]}`, `key "1" item 0 is 3170, expected a game id in [0, 3170)`, twitchParseFeaturesErr},
		{"non-integer game id", `{"0": [1.5]}`, `key "0" item 0 is 1.5`, twitchParseFeaturesErr},
		{"bad key", `{"0": [1], "x": [2]}`, `key "x", expected a node id in [0, 2)`, twitchParseFeaturesErr},
		{"bad edge number", "from,to\n0,1\n1,zz\n", `line 3: to "zz", expected an integer node id in [0, 2)`, twitchParseEdgesErr},
		{"edge out of range", "from,to\n0,2\n", `line 2: to "2", expected an integer node id in [0, 2)`, twitchParseEdgesErr},
		{"truncated edges", "from,to\n0,1\n1", "wrong number of fields", twitchParseEdgesErr},
		{"edge header", "a,b\n0,1\n", `has no column "from"`, twitchParseEdgesErr},
	}
	for _, c := range cases {
		path := writeFixture(t, dir, strings.ReplaceAll(c.name, " ", "_"), c.content)
		err := c.parse(path)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: got error %v, want one naming %s and containing %q", c.name, err, path, c.wantErr)
		}
	}
}

func twitchParseTargetsErr(path string) error { _, err := parseTwitchTargets(path); return err }

func twitchParseFeaturesErr(path string) error { _, _, err := parseTwitchFeatures(path, 2); return err }

func twitchParseEdgesErr(path string) error { _, _, err := parseTwitchEdges(path, 2); return err }

func TestTwitchQuirksOnFixture(t *testing.T) {
	dir := t.TempDir()
	header := "id,days,mature,views,partner,new_id\n"
	targets, err := parseTwitchTargets(writeFixture(t, dir, "t.csv", header+"9,1,False,1,False,1\n8,1,True,1,False,0\n9,1,False,2,False,1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(targets.labels, []int32{1, 0}) || !slices.Equal(targets.duplicates, []int{1}) {
		t.Errorf("labels %v duplicates %v, want [1 0] [1]", targets.labels, targets.duplicates)
	}
	m, missing, err := parseTwitchFeatures(writeFixture(t, dir, "f.json", `{"0": [5, 2, 5]}`), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(missing, []int{1}) || !slices.Equal(m.RowPtr, []int64{0, 2, 2}) || !slices.Equal(m.ColIdx, []int32{2, 5}) {
		t.Errorf("missing %v rowptr %v colidx %v, want [1] [0 2 2] [2 5]", missing, m.RowPtr, m.ColIdx)
	}
	src, dst, err := parseTwitchEdges(writeFixture(t, dir, "e.csv", "from,to\n1,0\n0,1\n"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(src, []int32{0, 1}) || !slices.Equal(dst, []int32{1, 0}) {
		t.Errorf("edges %v->%v, want [0 1]->[1 0] (one undirected edge listed twice)", src, dst)
	}
}

func TestTwitchMissingFileOffline(t *testing.T) {
	_, err := Load("twitch-de", Options{Root: t.TempDir(), Offline: true})
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "musae_DE_target.csv") || !strings.Contains(err.Error(), twitchURLPrefix) {
		t.Errorf("got %v, want an error naming the missing file and its URL", err)
	}
}

func TestTwitchChecksumMismatch(t *testing.T) {
	root := t.TempDir()
	spec := twitchFile("DE", "target.csv")
	// A copy of the right size but other bytes passes the size check; VerifyChecksums catches it.
	writeFixture(t, root, spec.Path, strings.Repeat("x", int(spec.Size)))
	_, err := Load("twitch-de", Options{Root: root, Offline: true, VerifyChecksums: true})
	if err == nil || !strings.Contains(err.Error(), "expected "+spec.SHA256) || !strings.Contains(err.Error(), "musae_DE_target.csv") {
		t.Errorf("got %v, want a sha256 mismatch naming the file and the expected digest", err)
	}
}
