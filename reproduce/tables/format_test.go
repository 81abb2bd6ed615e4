package tables

import "testing"

func TestDuration(t *testing.T) {
	for secs, want := range map[float64]string{0: "0 s", 59.4: "59 s", 59.6: "1 min", 1799: "30 min", 3599: "1 h 00 min", 3600*23 + 17*60 + 20: "23 h 17 min"} {
		if got := Duration(secs); got != want {
			t.Errorf("Duration(%v) = %q, want %q", secs, got, want)
		}
	}
}
