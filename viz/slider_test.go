package viz_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/geomix-go/geomix/viz"
)

func TestSteps(t *testing.T) {
	for _, c := range []struct {
		lo, hi, step float64
		want         []float64
	}{
		{0, 1, 0.1, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}},
		{1, 4, 1, []float64{1, 2, 3, 4}},
		{0.05, 0.2, 0.05, []float64{0.05, 0.1, 0.15, 0.2}},
		{0, 1, 0.3, []float64{0, 0.3, 0.6, 0.9}},
		{2, 2, 1, []float64{2}},
		{1, 0, 1, nil},
		{0, 1, 0, nil},
	} {
		got := viz.Steps(c.lo, c.hi, c.step)
		if len(got) != len(c.want) {
			t.Errorf("Steps(%g, %g, %g) = %v, want %v", c.lo, c.hi, c.step, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Steps(%g, %g, %g) = %v, want %v", c.lo, c.hi, c.step, got, c.want)
				break
			}
		}
	}
	if got := viz.Steps(0, 1, 0.01); len(got) != 101 || got[37] != 0.37 || got[100] != 1 {
		t.Errorf("Steps(0, 1, 0.01): %d values, [37] = %v, [100] = %v; want 101, 0.37, 1", len(got), got[37], got[100])
	}
}

func TestSliderHTML(t *testing.T) {
	s := viz.Slider[float64]{Label: "α <residual>", Values: []float64{0.1, 0.5, 0.9}, Start: 1}
	page, err := s.HTML("sl")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<label for="sl_input" style="min-width:12em">α &lt;residual&gt;</label>`, `<span id="sl_slot"></span>`,
		`>0.5</output>`, `readouts = ["0.1","0.5","0.9"]`} {
		if !strings.Contains(page, want) {
			t.Errorf("slider HTML lacks %s:\n%s", want, page)
		}
	}
	names, err := viz.Slider[string]{Label: "method", Values: []string{"GCN", "</script>"}}.HTML("m")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(names, "</script>") != 1 {
		t.Errorf("a readout ends the slider's script early:\n%s", names)
	}
}

func TestSliderDisplayErrors(t *testing.T) {
	for _, s := range []viz.Slider[int]{{Label: "none"}, {Label: "start", Values: []int{1, 2}, Start: 2}, {Label: "outside GoNB", Values: []int{1}}} {
		if _, err := s.Display(); err == nil || !strings.Contains(err.Error(), s.Label) {
			t.Errorf("slider %q: got %v, want an error naming it", s.Label, err)
		}
	}
}

// In Chromium, moving the slider (as gonbui's range input inside the box) updates the readout.
func TestChromiumSliderReadoutFollows(t *testing.T) {
	chromium := chromiumPath(t)
	box, err := viz.Slider[float64]{Label: "α", Values: []float64{0.1, 0.5, 0.9}}.HTML("sl")
	if err != nil {
		t.Fatal(err)
	}
	page := "<!DOCTYPE html><html><body>" + box +
		`<script>var r = document.createElement('input'); r.type = 'range'; r.id = 'sl_input'; r.min = 0; r.max = 2; r.value = 0;
document.getElementById('sl_slot').appendChild(r); r.value = 2; r.dispatchEvent(new Event('input', {bubbles: true}));</script></body></html>`
	dir := t.TempDir()
	path := filepath.Join(dir, "slider.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+path).Output()
	if err != nil {
		t.Fatalf("%s --dump-dom: %v", chromium, err)
	}
	if !strings.Contains(string(out), `font-weight:bold">0.9</output>`) {
		t.Errorf("readout after moving the slider to 0.9 is not 0.9:\n%s", out)
	}
}
