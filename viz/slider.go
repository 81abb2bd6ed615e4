package viz

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/widgets"
)

// Slider is a labelled slider for a GoNB notebook over a list of values: it shows its label, the
// slider and the value at the slider's position, which follows the slider as it moves.
type Slider[T any] struct {
	// Label names what the slider sets, e.g. "α (residual weight)".
	Label string
	// Values are what the positions stand for, in order: [P], P >= 1 (see Steps for a range of
	// numbers). The readout shows fmt.Sprint(Values[i]).
	Values []T
	// Start is the initial position, in [0, P).
	Start int
}

// LiveSlider is a Slider shown in a notebook.
type LiveSlider[T any] struct {
	values []T
	w      *widgets.SliderBuilder
}

// Display shows the slider as output of the current GoNB notebook cell and returns once the browser
// has it. Like every gonbui widget it waits for a browser: a notebook run headless must not call it.
// Outside a GoNB kernel, or with no values or Start out of range, it returns an error.
func (s Slider[T]) Display() (*LiveSlider[T], error) {
	if len(s.Values) == 0 || s.Start < 0 || s.Start >= len(s.Values) {
		return nil, fmt.Errorf("viz: slider %q needs values and a start position among them, got %d values and start %d", s.Label, len(s.Values), s.Start)
	}
	if !gonbui.IsNotebook {
		return nil, fmt.Errorf("viz: slider %q works only inside a GoNB notebook kernel", s.Label)
	}
	id := "geomix_slider_" + gonbui.UniqueId()
	page, err := s.html(id)
	if err != nil {
		return nil, err
	}
	gonbui.DisplayHTML(page)
	w := widgets.Slider(0, len(s.Values)-1, s.Start).WithHtmlId(id + "_input").AppendTo(id + "_slot").Done()
	return &LiveSlider[T]{values: s.Values, w: w}, nil
}

// sliderHTML is the slider's box, given its id, label, first readout and every readout (a JSON
// array): the label, a slot the gonbui slider (id "<id>_input") is put in, and the readout, which a
// script sets from the slider's position as it moves.
const sliderHTML = `<div class="geomix-slider" id="%[1]s" style="display:flex;align-items:center;gap:12px;font:14px sans-serif;margin:6px 0">
<label for="%[1]s_input" style="min-width:12em">%[2]s</label><span id="%[1]s_slot"></span><output for="%[1]s_input" style="min-width:6em;font-weight:bold">%[3]s</output>
</div>
<script>(function () {
  var box = document.getElementById('%[1]s'), readouts = %[4]s;
  if (!box) { return; }
  var show = function (e) {
    var i = parseInt(e.target.value, 10);
    if (e.target.type === 'range' && i >= 0 && i < readouts.length) { box.querySelector('output').textContent = readouts[i]; }
  };
  box.addEventListener('input', show);
  box.addEventListener('change', show);
})();</script>
`

// html returns the slider's box (see sliderHTML) with DOM id id.
func (s Slider[T]) html(id string) (string, error) {
	readouts := make([]string, len(s.Values))
	for i, v := range s.Values {
		readouts[i] = fmt.Sprint(v)
	}
	js, err := json.Marshal(readouts) // escapes <, > and & too, so no readout can end the script
	if err != nil {
		return "", fmt.Errorf("viz: slider %q readouts: %w", s.Label, err)
	}
	return fmt.Sprintf(sliderHTML, id, html.EscapeString(s.Label), html.EscapeString(readouts[s.Start]), js), nil
}

// Position returns the slider's position, an index into Values.
func (l *LiveSlider[T]) Position() int { return l.w.Value() }

// Value returns the value at the slider's position.
func (l *LiveSlider[T]) Value() T { return l.values[l.w.Value()] }

// Listen returns a channel that receives the slider's position (an index into Values) each time
// it moves.
func (l *LiveSlider[T]) Listen() <-chan int { return l.w.Listen().C }

// Steps returns lo, lo+step, ..., up to hi (included when the steps reach it), each rounded to the
// decimals of lo and step so that readouts show 0.3, not 0.30000000000000004. It returns nil unless
// step > 0 and lo <= hi.
func Steps(lo, hi, step float64) []float64 {
	if !(step > 0) || !(lo <= hi) {
		return nil
	}
	scale := math.Pow(10, float64(max(decimals(lo), decimals(step))))
	n := int(math.Floor((hi-lo)/step+1e-9)) + 1
	values := make([]float64, n)
	for i := range values {
		values[i] = math.Round((lo+float64(i)*step)*scale) / scale
	}
	return values
}

// decimals is the number of digits after the decimal point in the shortest form of v.
func decimals(v float64) int {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}
