package tables

import (
	"fmt"
	"strings"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/training"
)

// rawTwitchNote is how the data notes of a twitch-ood record made before the twitch_features option
// existed name the only features there were then: the raw game features.
const rawTwitchNote = "3170-d binary game features"

// TwitchFeatures returns, for each row of r ([len(r.Rows)]), the twitch_features its record under
// resultsDir (the tuned cell's for a validation-selected row, SelectedGroup) was trained with (datasets.TwitchFeaturesRaw or TwitchFeaturesSVD128): the record's
// parameter, or for a record made before the option existed, "raw" when its data notes name the raw
// game features. A row without results, or whose training is not twitch-ood, gets "". A record that
// says neither is an error naming it.
func (r *Report) TwitchFeatures(resultsDir string) ([]string, error) {
	out := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		if row.Ours == nil || row.Record == nil || row.Record.Training[0] != "twitch-ood" {
			continue
		}
		path := RecordPath(resultsDir, r.Table, row.Record.Training[0], row.Record.Training[1])
		if row.Tuning != nil {
			path = TunedRecordPath(resultsDir, r.Table, row.Record.Training[0], row.Record.Training[1])
		}
		rec, err := ReadRecord(path)
		if err != nil {
			return nil, err
		}
		switch v, ok := rec.Params[training.ParamTwitchFeatures]; {
		case ok:
			out[i] = fmt.Sprint(v)
		case strings.Contains(rec.DataNotes, rawTwitchNote):
			out[i] = datasets.TwitchFeaturesRaw
		default:
			return nil, fmt.Errorf("tables: %s has no %s parameter and its data notes do not name the features", path, training.ParamTwitchFeatures)
		}
	}
	return out, nil
}
