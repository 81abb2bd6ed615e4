package epochcost

import (
	"testing"

	"github.com/geomix-go/geomix/datasets"
	"github.com/geomix-go/geomix/geomix/backbones"
	"github.com/geomix-go/geomix/internal/testutil"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

// TestSameWidthReference times GCN, GAT (3 heads of 4 units) and GeoMix-I with a GAT backbone on
// the embedded data set: one reference GCN of hidden 12 follows the methods, timed in the same
// rounds, and both GAT-backbone cells get a ratio to it; GCN and the reference do not.
func TestSameWidthReference(t *testing.T) {
	ctx := context.New()
	ctx.SetParams(map[string]any{backbones.ParamHidden: 4, backbones.ParamGATHeads: 3})
	timings, err := TimeEpochsPresets(ctx, testutil.Backend(t), "synthetic", []string{"gcn", "gat"}, datasets.Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, tm := range timings {
		labels = append(labels, tm.Label())
		if tm.MillisPerEpoch <= 0 || tm.PeakHeapMiB <= 0 || tm.Epochs != 2 {
			t.Errorf("%s: %+v", tm.Label(), tm)
		}
	}
	if len(timings) != 3 || labels[0] != "gcn" || labels[1] != "gat" || labels[2] != "gcn@12" {
		t.Fatalf("cells %v, want gcn, gat, gcn@12", labels)
	}
	gcn, gat, ref := timings[0], timings[1], timings[2]
	if ref.Method != "gcn" || ref.Hidden != 12 || ref.WidthOf != "gat" || ref.RatioToGCN <= 0 || ref.RatioToSameWidthGCN != 0 {
		t.Errorf("reference %+v: want GCN of hidden 12 for gat, with a ratio to GCN only", ref)
	}
	if gat.RatioToSameWidthGCN <= 0 || gat.RatioToGCN <= 0 || gcn.RatioToSameWidthGCN != 0 {
		t.Errorf("gat %+v, gcn %+v: want GAT's ratios to both GCNs, none for GCN", gat, gcn)
	}

	ctx.SetParam(backbones.ParamBackbone, "gat") // GeoMix-I on GAT shares the reference of its width
	timings, err = TimeEpochsPresets(ctx, testutil.Backend(t), "synthetic", []string{"gat", "geomix1"}, datasets.Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(timings) != 3 || timings[2].Label() != "gcn@12" || timings[1].RatioToSameWidthGCN <= 0 {
		t.Errorf("gat, geomix1 on GAT: %+v %+v %+v, want one reference gcn@12 and geomix1's ratio to it", timings[0], timings[1], timings[len(timings)-1])
	}
}
