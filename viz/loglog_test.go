package viz

import (
	"strings"
	"testing"
)

func TestLogLog(t *testing.T) {
	c, err := LogLog{Title: "t", XName: "edges", YName: "ms", Series: []XYSeries{
		{Name: "gcn", X: []float64{1e3, 1e6}, Y: []float64{2, 900}},
		{Name: "fit", X: []float64{1e3, 1e6}, Y: []float64{1.5, 1000}, Dashed: true},
	}}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	opt := c.Option()
	for _, want := range []string{`"type":"log"`, `[1000,2]`, `[1000000,900]`, `"dashed"`} {
		if !strings.Contains(opt, want) {
			t.Errorf("option lacks %s:\n%s", want, opt)
		}
	}
	for _, bad := range []LogLog{
		{Title: "none"},
		{Title: "zero", Series: []XYSeries{{Name: "s", X: []float64{0, 1}, Y: []float64{1, 2}}}},
		{Title: "lengths", Series: []XYSeries{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}},
	} {
		if _, err := bad.Chart(); err == nil {
			t.Errorf("LogLog %q: no error", bad.Title)
		}
	}
}
