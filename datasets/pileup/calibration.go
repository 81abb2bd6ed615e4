package pileup

import "fmt"

// target is what one sample's leading vertex and pileup vertices yield after the reference cuts.
type target struct {
	lv          float64 // mean LV particles per event
	puPerVertex float64 // mean particles per pileup vertex
}

// Default targets, for samples the StruRW README does not tabulate: gg's LV is the mean over its
// PU 30, 50, 140 rows, qq's over its PU 50, 140 rows, and the pileup-vertex multiplicity the mean over
// those five rows.
var (
	defaultLV          = map[string]float64{"gg": 88.1, "qq": 51.05}
	defaultPUPerVertex = 10.72
)

// targets are the per-sample values the README's table implies (LV = nodes·r/(1+r), PU per vertex =
// nodes/(1+r)/PU for the published nodes and LV/PU ratio r). gg PU10's ratio is anomalous, so its LV
// is gg's default and its pileup multiplicity is what its published node count then leaves.
var targets = map[string]target{
	"gg10":  {lv: 88.1, puPerVertex: (185.17 - 88.1) / 10},
	"gg30":  {lv: 91.3, puPerVertex: 10.88},
	"gg50":  {lv: 87.7, puPerVertex: 10.63},
	"gg140": {lv: 85.3, puPerVertex: 10.60},
	"qq50":  {lv: 48.4, puPerVertex: 10.45},
	"qq140": {lv: 53.7, puPerVertex: 11.06},
}

// targetOf is the calibration target of (process, pu).
func targetOf(process string, pu int) target {
	if t, ok := targets[fmt.Sprint(process, pu)]; ok {
		return t
	}
	return target{lv: defaultLV[process], puPerVertex: defaultPUPerVertex}
}
