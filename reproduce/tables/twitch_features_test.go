package tables

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix"
	"github.com/geomix-go/geomix/geomix/training"
)

// TestTwitchFeatures checks the features read back per Table 3 row: the record's twitch_features
// parameter, "raw" for a record older than the option whose notes name the raw game features, an
// error for a record that says neither.
func TestTwitchFeatures(t *testing.T) {
	t3, err := SpecFor("table3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake := newFake(nil)
	runner := func(c Cell) (*geomix.Result, error) {
		res, err := fake.run(c)
		switch c.Method {
		case "gcn":
			res.Params[training.ParamTwitchFeatures] = "svd128"
		case "geomix1":
			res.DataNotes = "Features are MUSAE's 3170-d binary game features (as LINKX/EERM use)."
		}
		return res, err
	}
	o := testOptions(dir)
	o.Methods = []string{"erm", "geomix1"}
	sweep, err := Run(t3, runner, o)
	if err != nil {
		t.Fatal(err)
	}
	rep := sweep.Report
	features, err := rep.TwitchFeatures(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rep.Rows {
		want := map[string]string{"erm": "svd128", "geomix1": "raw"}[row.Method]
		if features[i] != want {
			t.Errorf("%s %s: features %q, want %q", row.Dataset, row.Method, features[i], want)
		}
	}

	o.Methods = []string{"geomix2"} // neither the parameter nor the notes
	if _, err := Run(t3, runner, o); err != nil {
		t.Fatal(err)
	}
	rep, err = LoadReport(dir, "table3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rep.TwitchFeatures(dir); err == nil || !strings.Contains(err.Error(), "twitch-ood-geomix2.json") {
		t.Errorf("a record without features: error %v, want one naming it", err)
	}
}

// TestTwitchFeaturesSelected: a validation-selected Table 3 row (SelectedGroup) reads its features
// from the tuned cell's record, a script settings row from its own; a table without tuned cells
// has no selected group.
func TestTwitchFeaturesSelected(t *testing.T) {
	t3, err := SpecFor("table3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fake, features := newFake(nil), datasets.TwitchFeaturesRaw
	runner := func(c Cell) (*geomix.Result, error) {
		res, err := fake.run(c)
		if err == nil {
			maps.Copy(res.Params, c.Params) // the settings it trained with
			res.Params[training.ParamTwitchFeatures] = features
		}
		return res, err
	}
	o := testOptions(dir)
	o.Methods = []string{"erm"}
	sweep, err := Run(t3, runner, o)
	if err != nil {
		t.Fatal(err)
	}
	if sweep.Report.SelectedGroup() != nil {
		t.Error("a table without tuned cells has a selected group")
	}
	features = datasets.TwitchFeaturesSVD128
	if _, _, err := RunTune(TuneSweep{Table: "table3", Methods: []string{"erm"}, Size: 2, Seed: 1}, runner, tuneOptions(dir)); err != nil {
		t.Fatal(err)
	}
	rep, err := LoadReport(dir, "table3")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		group *Report
		want  string
	}{{rep, datasets.TwitchFeaturesRaw}, {rep.SelectedGroup(), datasets.TwitchFeaturesSVD128}} {
		got, err := c.group.TwitchFeatures(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range c.group.Rows {
			if want := map[bool]string{true: c.want}[row.Method == "erm"]; got[i] != want {
				t.Errorf("%s %s (tuned %v): features %q, want %q", row.Dataset, row.Method, row.Tuning != nil, got[i], want)
			}
		}
	}
}

// TestRowsWithoutPaper checks Table 4's stand-in columns, which the paper does not print: WriteRows
// says "none" and Bars draws no paper bar; Only keeps the named columns.
func TestRowsWithoutPaper(t *testing.T) {
	t4, err := SpecFor("table4")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := testOptions(dir)
	o.Datasets, o.Methods = []string{"20news-100", "fmnist"}, []string{"gcn"}
	sweep, err := Run(t4, newFake(map[string]float64{"fmnist/gcn": 74, "20news/gcn": 57}).run, o)
	if err != nil {
		t.Fatal(err)
	}
	rep := sweep.Report.Only("fmnist")
	if len(rep.Rows) != len(t4.Paper.Methods) || len(sweep.Report.Only("fmnist", "20news-100").WithResults().Rows) != 2 {
		t.Fatalf("Only(fmnist) kept %d rows, want one per method (%d)", len(rep.Rows), len(t4.Paper.Methods))
	}
	var rows strings.Builder
	if err := rep.WriteRows(&rows); err != nil {
		t.Fatal(err)
	}
	want := "row fmnist gcn: ours=74.00 std=0.00 runs=5 quick=false paper=none std=none diff=none flagged=false rel=none paper_rel=none\n"
	if rows.String() != want {
		t.Errorf("WriteRows:\n got %q\nwant %q", rows.String(), want)
	}
	cats, ours, paper := rep.Bars()
	if !slices.Equal(cats, []string{"Fashion-MNIST stand-in (10 per class) GCN"}) || ours.Values[0] != 74 || !math.IsNaN(paper.Values[0]) || !math.IsNaN(paper.Errors[0]) {
		t.Errorf("Bars: %v %+v %+v, want no paper bar", cats, ours, paper)
	}
	if _, err := rep.Chart(); err != nil {
		t.Errorf("a chart without paper bars: %v", err)
	}

	all := sweep.Report
	if got := all.Columns(); !slices.Equal(got, []string{"20news-100", "fmnist"}) {
		t.Errorf("columns with results %v, want [20news-100 fmnist]", got)
	}
	for column, want := range map[string][]string{
		"fmnist":     {`"text":"Table 4, Fashion-MNIST stand-in (10 per class): ours (the paper prints none)"`, `"subtext":"error bars: ± std over runs; pixels"`, `"data":["GCN"]`},
		"20news-100": {`"text":"Table 4, 20News (100 per class): ours vs paper"`, `"name":"paper"`, `{"value":56.6}`},
	} {
		c, err := all.ColumnChart(column, map[string]string{"fmnist": "pixels"}[column])
		if err != nil {
			t.Fatal(err)
		}
		opt := c.Option()
		for _, w := range want {
			if !strings.Contains(opt, w) {
				t.Errorf("%s chart lacks %s:\n%s", column, w, opt)
			}
		}
		if column == "fmnist" && strings.Contains(opt, `"name":"paper"`) {
			t.Errorf("fmnist chart has a paper series:\n%s", opt)
		}
	}
	if _, err := all.ColumnChart("20news-200", ""); err == nil {
		t.Error("a column without results: no error")
	}
}
