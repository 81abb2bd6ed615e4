// Package pileup is the Pileup Mitigation data of the GeoMix paper (KDD'24, section "OOD
// Generalization in High Energy Physics").
package pileup
