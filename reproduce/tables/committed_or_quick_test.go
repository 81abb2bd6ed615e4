package tables

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
)

// CommittedOrQuick runs a quick sweep when nothing is committed, then (not quick) reads the
// committed records; WriteRows and Bars cover only the rows with results.
func TestCommittedOrQuick(t *testing.T) {
	dir := t.TempDir()
	fake := newFake(map[string]float64{"cora/geomix1": 84})
	var log strings.Builder
	rep, err := CommittedOrQuick(dir, "table5", false, []string{"cora"}, []string{"geomix1"}, fake.run, "test", "abc1234", &log)
	if err != nil {
		t.Fatal(err)
	}
	if fake.total() != 1 || !rep.Quick || !strings.Contains(log.String(), "running the quick subset instead") {
		t.Fatalf("empty results dir: calls %d, quick %v, log %q; want one quick cell", fake.total(), rep.Quick, log.String())
	}

	o := testOptions(dir)
	o.Datasets, o.Methods = []string{"cora"}, []string{"geomix1"}
	if _, err := Run(table5(t), fake.run, o); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	again := newFake(nil)
	rep, err = CommittedOrQuick(dir, "table5", false, []string{"cora"}, []string{"geomix1"}, again.run, "test", "abc1234", &log)
	if err != nil || again.total() != 0 || rep.Quick || !strings.Contains(log.String(), "committed results") {
		t.Fatalf("committed: err %v, calls %d, quick %v, log %q", err, again.total(), rep.Quick, log.String())
	}
	if n := len(rep.WithResults().Rows); n != 1 || len(rep.Rows) <= n {
		t.Fatalf("WithResults kept %d of %d rows, want 1", n, len(rep.Rows))
	}
	var rows strings.Builder
	if err := rep.WriteRows(&rows); err != nil {
		t.Fatal(err)
	}
	want := "row cora geomix1: ours=84.00 std=0.00 runs=5 quick=false paper=84.10 std=0.70 diff=-0.10 flagged=false rel=none paper_rel=none\n"
	if rows.String() != want {
		t.Errorf("WriteRows:\n got %q\nwant %q", rows.String(), want)
	}
	cats, ours, paper := rep.Bars()
	if len(cats) != 1 || cats[0] != "Cora GeoMix-I" || ours.Values[0] != 84 || paper.Values[0] != 84.1 || math.IsNaN(ours.Errors[0]) {
		t.Errorf("Bars: %v %+v %+v", cats, ours, paper)
	}
}

// TestCommittedOrQuickWithoutData checks that a quick sweep whose cells lack their data shows the
// committed records instead (a notebook run without a data root), and that any other failure, or
// missing data with nothing committed, is still an error.
func TestCommittedOrQuickWithoutData(t *testing.T) {
	dir := t.TempDir()
	missing := func(c Cell) (*geomix.Result, error) {
		return nil, fmt.Errorf("loading %s: %w cora.x (offline)", c.Dataset, datasets.ErrMissing)
	}
	broken := func(c Cell) (*geomix.Result, error) { return nil, errors.New("a bug") }
	var log strings.Builder
	if _, err := CommittedOrQuick(dir, "table5", true, []string{"cora"}, []string{"geomix1"}, missing, "test", "abc1234", &log); err == nil {
		t.Fatal("missing data with nothing committed: no error")
	}
	o := testOptions(dir)
	o.Datasets, o.Methods = []string{"cora"}, []string{"geomix1"}
	if _, err := Run(table5(t), newFake(map[string]float64{"cora/geomix1": 84}).run, o); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	rep, err := CommittedOrQuick(dir, "table5", true, []string{"cora"}, []string{"geomix1"}, missing, "test", "abc1234", &log)
	if err != nil || rep.Quick || len(rep.WithResults().Rows) != 1 || !strings.Contains(log.String(), "showing the committed results") {
		t.Fatalf("missing data, committed records: err %v, quick %v, log %q; want the committed report", err, rep != nil && rep.Quick, log.String())
	}
	if _, err := CommittedOrQuick(dir, "table5", true, []string{"cora"}, []string{"geomix1"}, broken, "test", "abc1234", &log); err == nil {
		t.Fatal("a failure other than missing data: no error")
	}
}
