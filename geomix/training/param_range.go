package training

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/geomix-go/geomix/geomix/backbones"
)

// paramSpec is one hyper-parameter: its default (whose Go type is the parameter's) and its valid
// values.
type paramSpec struct {
	def   any
	valid paramRange
}

// paramRange is the valid values of a hyper-parameter: numbers in [min, max] (an end excluded when
// its open flag is set), or for strings one of values(); the zero value accepts everything.
type paramRange struct {
	numeric          bool
	min, max         float64
	minOpen, maxOpen bool
	values           func() []string
}

// The ranges of paramSpecs.
var (
	anyValue      = paramRange{}
	positive      = paramRange{numeric: true, min: 0, minOpen: true, max: math.Inf(1)}
	nonNegative   = paramRange{numeric: true, min: 0, max: math.Inf(1)}
	atLeastOne    = paramRange{numeric: true, min: 1, max: math.Inf(1)}
	probability   = paramRange{numeric: true, min: 0, max: 1}
	rate          = paramRange{numeric: true, min: 0, max: 1, maxOpen: true} // a dropout rate: 1 would drop everything
	backboneNames = paramRange{values: backbones.Names}
)

// oneOf is the range of a string parameter with the given values.
func oneOf(values ...string) paramRange { return paramRange{values: func() []string { return values }} }

// String writes the range as the error messages show it, e.g. "[0, 1]", "(0, ∞)", "one of a, b".
func (r paramRange) String() string {
	if r.values != nil {
		return "one of " + strings.Join(r.values(), ", ")
	}
	lo, hi := "[", "]"
	if r.minOpen {
		lo = "("
	}
	if r.maxOpen || math.IsInf(r.max, 1) {
		hi = ")"
	}
	max := fmt.Sprint(r.max)
	if math.IsInf(r.max, 1) {
		max = "∞"
	}
	return fmt.Sprintf("%s%v, %s%s", lo, r.min, max, hi)
}

// contains reports whether v (of the parameter's Go type) is in r.
func (r paramRange) contains(v any) bool {
	var x float64
	switch v := v.(type) {
	case int:
		x = float64(v)
	case float64:
		x = v
	case string:
		return r.values == nil || slices.Contains(r.values(), v)
	default:
		return true
	}
	if !r.numeric {
		return true
	}
	switch {
	case math.IsNaN(x), x < r.min, r.minOpen && x == r.min, x > r.max, r.maxOpen && x == r.max:
		return false
	}
	return true
}

// check returns an error naming key, v and the valid range when v is outside it.
func (s paramSpec) check(key string, v any) error {
	if s.valid.contains(v) {
		return nil
	}
	return fmt.Errorf("hyper-parameter %s = %#v is out of range: want %s", key, v, s.valid)
}

// CheckParams returns an error naming the first parameter (in name order) whose value has the wrong
// Go type or lies outside its valid range (probabilities in [0, 1], widths, epochs, runs and hops
// at least 1, the learning rate above 0, ...; see ParseParam).
func CheckParams(values map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(values)) {
		spec, ok := paramSpecs[k]
		if !ok {
			return fmt.Errorf("unknown hyper-parameter %q: valid ones are %s", k, strings.Join(ParamNames(), ", "))
		}
		want, got := fmt.Sprintf("%T", spec.def), fmt.Sprintf("%T", values[k])
		if want != got {
			return fmt.Errorf("hyper-parameter %q = %v has type %s, want %s", k, values[k], got, want)
		}
		if err := spec.check(k, values[k]); err != nil {
			return err
		}
	}
	return nil
}
