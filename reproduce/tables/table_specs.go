package tables

import (
	"fmt"
	"slices"
)

// Spec says which cells of a paper table the toolkit runs.
type Spec struct {
	// Paper is the table as printed.
	Paper *PaperTable
	// Datasets are the columns run, in the paper's order.
	Datasets []string
	// Methods are the rows run, in the paper's order.
	Methods []string
	// NotImplemented are the paper's rows this toolkit cannot run yet; reports show them as
	// "not implemented yet".
	NotImplemented []string
	// Reference is the method a relative change is reported against, as the paper's Table 5 does
	// against GeoMix-I; "" when the table has no relative change.
	Reference string
	// TrainedOn maps a column to the data set trained for it where they differ: Table 3's three
	// columns are one training on twitch-ood, Table 4's 20news-100 is the 20news data set. A column
	// with an ExtraTest entry is the accuracy, at each run's selected epoch, on that extra test set
	// of its training (Table 3: the Twitch OOD graphs FR, PTBR, RU); others are the test accuracy.
	TrainedOn map[string]string
	ExtraTest map[string]string
	// Unavailable maps the columns whose data cannot be obtained to the reason; their rows say so
	// and sweeps skip them.
	Unavailable map[string]string
	// RunAs maps a row to the geomix method that trains it where the ids differ (Table 3's "erm" is
	// GCN trained on the labelled nodes: "gcn").
	RunAs map[string]string
	// TimedMethods are the rows whose summed training time the report states on its own line
	// (Table 2: GCN and GeoMix-I/II/III, the block whose sweep time the toolkit is measured by);
	// nil when the table has none.
	TimedMethods []string
	// Claims are the paper's sentences about the table that the report checks.
	Claims []Claim
	// Tuned says the table's rows are re-tuned by a validation grid search (RunTune), whose
	// selected cells the report shows as its headline group; ScriptRows are the rows that keep the
	// authors' script settings in that group (GeoMix's in Tables 2 and 4: the authors tuned them).
	Tuned      bool
	ScriptRows []string
}

// QuickDatasets are the data sets a --quick sweep runs unless datasets are named explicitly: the
// small graphs with light presets (Cora 2,708 nodes, CiteSeer 3,327, filtered Chameleon 890).
// PubMed, CS and Physics (18k-34k nodes, up to 8,415 features) are left out, and so is Squirrel:
// its preset (5 layers, width 128) took about 10 s per epoch on the shared 2-core machine.
var QuickDatasets = []string{"cora", "citeseer", "chameleon"}

// DefaultRuns is the number of runs of the authors' scripts: 10 for squirrel and chameleon (one per
// fixed Platonov split, as src/hetero/main.py of the authors' code runs them), 5 otherwise.
func DefaultRuns(dataset string) int {
	if dataset == "squirrel" || dataset == "chameleon" {
		return 10
	}
	return 5
}

// Specs returns the runnable tables: table2, table3, table4 and table5.
func Specs() []*Spec {
	t2, t3, t4, t5 := paperTable2(), paperTable3(), paperTable4(), paperTable5()
	simclr := "the SimCLR ResNet-18 features of the reference (features.pkl) are not obtainable offline"
	return []*Spec{
		{
			Paper:        t2,
			Datasets:     t2.Datasets,
			Methods:      []string{"gcn", "gat", "sgc", "appnp", "glognn", "mixup", "graphmixup", "graphmix", "geomix1", "geomix2", "geomix3"},
			TimedMethods: []string{"gcn", "geomix1", "geomix2", "geomix3"},
			Tuned:        true,
			ScriptRows:   geoMixVariants,
			Claims:       table2Claims(),
		},
		{
			Paper:     t3,
			Datasets:  t3.Datasets,
			Methods:   []string{"erm", "eerm", "dann", "mixup", "graphmix", "geomix1", "geomix2", "geomix3"},
			TrainedOn: map[string]string{"twitch-fr": "twitch-ood", "twitch-ptbr": "twitch-ood", "twitch-ru": "twitch-ood"},
			ExtraTest: map[string]string{"twitch-fr": "FR", "twitch-ptbr": "PTBR", "twitch-ru": "RU"},
			RunAs:     map[string]string{"erm": "gcn"},
			Tuned:     true,
			Claims:    table3Claims(),
		},
		{
			Paper:       t4,
			Datasets:    append(slices.Clone(t4.Datasets), "fmnist", "fmnist-20"),
			Methods:     []string{"mlp", "gcn", "gat", "sgc", "mixup", "graphmixup", "graphmix", "geomix1", "geomix2", "geomix3"},
			TrainedOn:   map[string]string{"20news-100": "20news"},
			Unavailable: map[string]string{"stl10-10": simclr, "stl10-20": simclr, "cifar10-10": simclr, "cifar10-20": simclr},
			Tuned:       true,
			ScriptRows:  geoMixVariants,
			Claims:      table4Claims(),
		},
		{
			Paper:     t5,
			Datasets:  t5.Datasets,
			Methods:   t5.Methods,
			Reference: "geomix1",
			Claims:    table5Claims(),
		},
	}
}

// SpecFor returns the runnable table with id, e.g. "table2".
func SpecFor(id string) (*Spec, error) {
	var ids []string
	for _, s := range Specs() {
		if s.Paper.ID == id {
			return s, nil
		}
		ids = append(ids, s.Paper.ID)
	}
	return nil, fmt.Errorf("tables: table %q cannot be run (runnable: %v)", id, ids)
}

// rowOrder is every row of the report: the paper's methods in print order.
func (s *Spec) rowOrder() []string { return s.Paper.Methods }

// runnable reports whether method is a row this toolkit runs.
func (s *Spec) runnable(method string) bool { return slices.Contains(s.Methods, method) }

// trainedOn is the data set column is read from: TrainedOn's, or the column itself.
func (s *Spec) trainedOn(column string) string {
	if d, ok := s.TrainedOn[column]; ok {
		return d
	}
	return column
}

// runAs is the geomix method that trains row.
func (s *Spec) runAs(row string) string {
	if m, ok := s.RunAs[row]; ok {
		return m
	}
	return row
}

// trainings lists the distinct data sets the columns need trained, in column order.
func (s *Spec) trainings(columns []string) []string {
	var out []string
	for _, c := range columns {
		if d := s.trainedOn(c); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// readOurs returns column's accuracy from rec, a record of the training s.trainedOn(column).
func (s *Spec) readOurs(rec *Record, column string) (Stat, error) {
	set, ok := s.ExtraTest[column]
	if !ok {
		return Stat{Mean: rec.TestAccMean, Std: rec.TestAccStd}, nil
	}
	ms, ok := rec.ExtraTests[set]
	if !ok {
		return Stat{}, fmt.Errorf("record of %s/%s has no extra test set %q", rec.Dataset, rec.Method, set)
	}
	return Stat{Mean: ms.Mean, Std: ms.Std}, nil
}
