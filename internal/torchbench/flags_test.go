package torchbench

import (
	"slices"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/geomix/presets"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// presetFlags returns Flags for the preset of (dataset, method).
func presetFlags(t *testing.T, dataset, method string) []string {
	t.Helper()
	ctx := context.New()
	if _, err := presets.Apply(ctx, dataset, method); err != nil {
		t.Fatal(err)
	}
	flags, err := Flags(ctx, method)
	if err != nil {
		t.Fatal(err)
	}
	return flags
}

// hasFlag reports whether flags hold name followed by value (or name alone when value is "").
func hasFlag(flags []string, name, value string) bool {
	i := slices.Index(flags, name)
	if value == "" {
		return i >= 0
	}
	return i >= 0 && i+1 < len(flags) && flags[i+1] == value
}

// TestFlagsOfPresets checks the script flags of three preset rows against the authors' scripts:
// CiteSeer's GeoMix-III (main_exp, BatchNorm, label_grad), Chameleon's GeoMix-I (hetero:
// gcnconv, patience 200) and -III (frozen attention), and Cora's plain GCN (Adam re-created).
func TestFlagsOfPresets(t *testing.T) {
	for _, tc := range []struct {
		dataset, method string
		want            [][2]string
		absent          []string
	}{
		{"citeseer", "geomix3", [][2]string{{"--method", "geomix3"}, {"--lr", "0.1"}, {"--hidden_channels", "16"}, {"--weight_decay", "0.01"},
			{"--dropout", "0.5"}, {"--hops", "2"}, {"--res_weight", "0.5"}, {"--graph_weight", "0.3"}, {"--attn_emb_dim", "16"},
			{"--backbone", "gcn"}, {"--num_layers", "2"}, {"--use_bn", ""}, {"--label_grad", ""}}, []string{"--frozen_attention", "--reset_adam", "--alpha"}},
		{"chameleon", "geomix1", [][2]string{{"--backbone", "gcnconv"}, {"--patience", "200"}, {"--alpha", "0.8"}, {"--hidden_channels", "64"},
			{"--weight_decay", "0.001"}}, []string{"--use_bn", "--label_grad"}},
		{"chameleon", "geomix3", [][2]string{{"--frozen_attention", ""}, {"--res_weight", "0.8"}}, nil},
		{"cora", "gcn", [][2]string{{"--method", "gcn"}, {"--reset_adam", ""}, {"--hidden_channels", "16"}}, []string{"--use_bn"}},
	} {
		flags := presetFlags(t, tc.dataset, tc.method)
		for _, w := range tc.want {
			if !hasFlag(flags, w[0], w[1]) {
				t.Errorf("%s/%s: flags %q lack %s %s", tc.dataset, tc.method, flags, w[0], w[1])
			}
		}
		for _, a := range tc.absent {
			if hasFlag(flags, a, "") {
				t.Errorf("%s/%s: flags %q hold %s", tc.dataset, tc.method, flags, a)
			}
		}
	}
}

// TestFlagsRejects checks that what the script cannot run is an error naming it.
func TestFlagsRejects(t *testing.T) {
	for _, tc := range []struct {
		method string
		params map[string]any
		want   string
	}{
		{"gat", nil, `method "gat"`},
		{"geomix1", map[string]any{"normalization": "row"}, "normalization = row"},
		{"geomix1", map[string]any{"backbone": "gat"}, "backbone gat"},
		{"geomix1", map[string]any{"gat_heads": 4}, "gat_heads = 4 has no counterpart"},
		{"geomix3", map[string]any{"use_weight": false}, "use_weight = false"},
	} {
		ctx := context.New()
		ctx.SetParams(tc.params)
		if _, err := Flags(ctx, tc.method); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want one containing %q", tc.method, tc.params, err, tc.want)
		}
	}
}
