package training

import (
	"io"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestParamRanges: every default lies in its range; values outside it are refused by ParseParam,
// CheckParams and Train, with the valid range in the message; values at the ends are accepted.
func TestParamRanges(t *testing.T) {
	defaults := map[string]any{}
	for k, spec := range paramSpecs {
		defaults[k] = spec.def
	}
	if err := CheckParams(defaults); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct{ key, value, want string }{
		{"alpha", "2", `hyper-parameter alpha = 2 is out of range: want [0, 1]`},
		{"alpha", "-0.1", "want [0, 1]"},
		{"dropout", "1", "want [0, 1)"},
		{"lr", "0", "want (0, ∞)"},
		{"hidden", "0", "want [1, ∞)"},
		{"epochs", "-5", "want [1, ∞)"},
		{"runs", "0", "want [1, ∞)"},
		{"hops", "0", "want [1, ∞)"},
		{"weight_decay", "-1e-4", "want [0, ∞)"},
		{"normalization", "left", "want one of sym, row, rowself"},
		{"backbone", "transformer", "want one of"},
		{"appnp_alpha", "NaN", "want [0, 1]"},
	} {
		if v, err := ParseParam(c.key, c.value); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseParam(%s, %s) = %v, %v; want an error with %q", c.key, c.value, v, err, c.want)
		}
	}
	for _, c := range [][2]string{{"alpha", "0"}, {"alpha", "1"}, {"dropout", "0"}, {"lr", "1e-9"}, {"hops", "1"}, {"seed", "-3"}} {
		if _, err := ParseParam(c[0], c[1]); err != nil {
			t.Errorf("ParseParam(%s, %s): %v", c[0], c[1], err)
		}
	}
	ctx := context.New()
	ctx.SetParams(map[string]any{ParamEpochs: 2, "alpha": 2.0})
	if _, err := Train(ctx, testutil.Backend(t), testutil.TinyGraph(), "geomix1", WithProgress(io.Discard)); err == nil || !strings.Contains(err.Error(), "want [0, 1]") {
		t.Errorf("Train with alpha = 2: %v, want the range in an error", err)
	}
}
