// Package methods holds the training objectives, one file per method behind the Method interface:
// GeoMix-I/II/III and the ablations (geomix.go), the plain baselines trained by empirical risk
// minimisation (erm.go), node Mixup (mixup.go), GraphMix (graphmix.go), DANN (dann.go) and EERM
// (eerm.go). The trainer (package training) asks a Method for its backbone, lets it read its
// hyper-parameters (Prepare), draws each update's host-side inputs (Draw) and builds the update's
// loss (Loss); it has no branch per method.
//
// Adding a baseline: write a new file with a type implementing Method, and add its line to the
// registry in registry.go; `reproduce`, the tables and the notebooks accept its id from then on.
//
//	m, err := methods.New("geomix1") // a fresh Method for one training
package methods
