package tables

import (
	"slices"
	"testing"
)

// TestTunedColumns checks that a tuned training is named by the columns it serves, not by its
// record's data set id: one Twitch training for Table 3's three columns, 20News' training for
// its 100-per-class column.
func TestTunedColumns(t *testing.T) {
	twitch, news := [2]string{"twitch-ood", "erm"}, [2]string{"20news", "gcn"}
	rows := []Row{
		{Dataset: "twitch-fr", Tuning: &Tuning{}, Record: &RecordProvenance{Training: twitch}},
		{Dataset: "twitch-ptbr", Tuning: &Tuning{}, Record: &RecordProvenance{Training: twitch}},
		{Dataset: "twitch-ru", Tuning: &Tuning{}, Record: &RecordProvenance{Training: twitch}},
		{Dataset: "20news-100", Tuning: &Tuning{}, Record: &RecordProvenance{Training: news}},
		{Dataset: "20news-200", Method: "geomix1", Record: &RecordProvenance{Training: [2]string{"20news-200", "geomix1"}}},
	}
	got := tunedColumns(rows)
	if want := []string{"Twitch-FR", "Twitch-PT", "Twitch-RU"}; !slices.Equal(got[twitch], want) {
		t.Errorf("Twitch training serves %q, want %q", got[twitch], want)
	}
	if want := []string{"20News (100 per class)"}; !slices.Equal(got[news], want) {
		t.Errorf("20News training serves %q, want %q", got[news], want)
	}
	if len(got) != 2 {
		t.Errorf("%d tuned trainings, want 2 (a script-settings row is not tuned): %v", len(got), got)
	}
}
