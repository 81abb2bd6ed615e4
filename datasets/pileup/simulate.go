package pileup

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Processes are the hard-scatter processes of the Zenodo files: "gg" (gluon-initiated, ~88 leading-
// vertex particles after cuts) and "qq" (Z(νν)+jets, ~50).
var Processes = []string{"gg", "qq"}

// PileupLevels are the mean numbers of pileup interactions of the Zenodo files.
var PileupLevels = []int{10, 30, 50, 140}

// Simulator parameters (the calibrated recipe; see doc.go). Pileup vertices are Poisson(PU); each
// soft vertex has NegBin(mean, k) particles before cuts with Lomax pT and Gaussian η.
const (
	// softPass is the fraction of soft particles passing the reference cuts:
	// P(|η| < 2.5) · P(pT > 0.5) = 0.744 · 0.396 for the η and pT laws below.
	softPass = 0.2946
	// softMultK is the negative-binomial shape of a pileup vertex's multiplicity.
	softMultK = 1.5
	// softPTScale and softPTShape are the Lomax λ and α of soft pT in GeV (mean 0.6).
	softPTScale = 3.0
	softPTShape = 6.0
	// softEtaSigma is the width of the soft particles' η distribution.
	softEtaSigma = 2.2
	// puClustered is the fraction of a pileup vertex's particles in its minijets.
	puClustered = 0.33
	// minijets is the Poisson mean of minijets beyond the first of a pileup vertex.
	minijets = 0.5
	// minijetSigma is the Gaussian spread in η and in φ of a minijet's particles.
	minijetSigma = 0.25
	// ueClustered is the fraction of the leading vertex's underlying event in minijets.
	ueClustered = 0.22
	// ueMultK is the negative-binomial shape of the underlying event's multiplicity.
	ueMultK = 2.0
	// jetPTMin and jetPTSlope give jet pT = min + Exp(slope) GeV.
	jetPTMin   = 25.0
	jetPTSlope = 35.0
	// jetEtaSigma is the width of the jets' η distribution.
	jetEtaSigma = 1.4
	// dirichlet is the Dirichlet concentration of the momentum sharing within a jet.
	dirichlet = 0.7
	// recoPUFlip is the probability that a charged particle's IsRecoPU differs from IsPU.
	recoPUFlip = 0.02
	// jetCharged and jetPhoton are the charged and photon fractions of jet constituents
	// (the rest are neutral hadrons).
	jetCharged = 0.62
	jetPhoton  = 0.26
	// softCharged and softPhoton are the same fractions for soft particles.
	softCharged = 0.60
	softPhoton  = 0.28
	// etaMax is the |η| beyond which generated particles are not written (outside the detector).
	etaMax = 4.0
)

// processParams are the hard-scatter settings of one process.
type processParams struct {
	extraJets        float64 // Poisson mean of jets beyond the first minJets
	minJets          int
	backToBack       bool    // the first two jets back to back in φ
	multA, multB     float64 // mean constituents = multA + multB·ln(pT/20)
	jetSigma         float64 // Rayleigh width of the constituents' ΔR
	jetLV            float64 // mean jet constituents passing the cuts (measured on the simulator)
	backToBackSpread float64 // Gaussian spread of the second jet's φ around φ₁ + π
}

// processes holds the calibrated settings of "gg" and "qq".
var processes = map[string]processParams{
	"gg": {extraJets: 1.5, minJets: 2, backToBack: true, multA: 7, multB: 4, jetSigma: 0.13, jetLV: 29.4, backToBackSpread: 0.3},
	"qq": {extraJets: 0.8, minJets: 1, multA: 4.5, multB: 2.5, jetSigma: 0.16, jetLV: 13.3},
}

// simulator draws events of one (process, PU) sample from its own random stream.
type simulator struct {
	rng *rand.Rand
	p   processParams
	pu  float64
	// ueMult and puMult are the mean multiplicities before cuts of the underlying event and of a
	// pileup vertex.
	ueMult, puMult float64
	ev             Event
}

// newSimulator checks process and pu and seeds the sample's stream from (seed, process, pu), so every
// sample is reproducible on its own and the first events do not depend on how many are drawn.
func newSimulator(process string, pu int, seed uint64) (*simulator, error) {
	p, ok := processes[process]
	if !ok {
		return nil, fmt.Errorf("pileup: unknown process %q, expected gg or qq", process)
	}
	if pu <= 0 {
		return nil, fmt.Errorf("pileup: pileup level %d, expected a positive mean number of interactions (10, 30, 50, 140)", pu)
	}
	stream := uint64(pu)<<8 | uint64(process[0])
	sim := &simulator{rng: rand.New(rand.NewPCG(seed, stream)), p: p, pu: float64(pu)}
	t := targetOf(process, pu)
	sim.ueMult = math.Max(t.lv-p.jetLV, 0) / softPass
	sim.puMult = t.puPerVertex / softPass
	return sim, nil
}

// next draws one event: the leading vertex (jets and underlying event, IsPU = 0) then Poisson(PU)
// pileup vertices (IsPU = 1). The returned Event is reused by the next call.
func (s *simulator) next() *Event {
	s.ev = Event{PT: s.ev.PT[:0], Eta: s.ev.Eta[:0], Phi: s.ev.Phi[:0], Mass: s.ev.Mass[:0],
		Charge: s.ev.Charge[:0], PdgID: s.ev.PdgID[:0], IsRecoPU: s.ev.IsRecoPU[:0], IsPU: s.ev.IsPU[:0]}
	s.hardScatter()
	s.softVertex(s.negBin(s.ueMult, ueMultK), ueClustered, false)
	for v := s.poisson(s.pu); v > 0; v-- {
		s.softVertex(s.negBin(s.puMult, softMultK), puClustered, true)
	}
	return &s.ev
}

// hardScatter adds the leading vertex's jets.
func (s *simulator) hardScatter() {
	nJets := s.p.minJets + s.poisson(s.p.extraJets)
	var phi0 float64
	for j := 0; j < nJets; j++ {
		phi := s.uniformPhi()
		switch {
		case j == 0:
			phi0 = phi
		case j == 1 && s.p.backToBack:
			phi = wrapPhi(phi0 + math.Pi + s.rng.NormFloat64()*s.p.backToBackSpread)
		}
		pt := jetPTMin + s.rng.ExpFloat64()*jetPTSlope
		eta := s.rng.NormFloat64() * jetEtaSigma
		s.jet(pt, eta, phi)
	}
}

// jet adds the constituents of one jet: 1 + Poisson(n̄ − 1) of them with Dirichlet momentum shares,
// at Rayleigh-distributed ΔR whose width grows for softer constituents.
func (s *simulator) jet(pt, eta, phi float64) {
	mean := s.p.multA + s.p.multB*math.Log(pt/20)
	n := 1 + s.poisson(mean-1)
	shares := make([]float64, n)
	gamma := distuv.Gamma{Alpha: dirichlet, Beta: 1, Src: s.rng}
	sum := 0.0
	for i := range shares {
		shares[i] = gamma.Rand()
		sum += shares[i]
	}
	for _, z := range shares {
		z /= sum
		sigma := math.Min(s.p.jetSigma*math.Pow(z*float64(n), -0.3), 0.4)
		dr := sigma * math.Sqrt(-2*math.Log(1-s.rng.Float64()))
		theta := 2 * math.Pi * s.rng.Float64()
		s.particle(z*pt, eta+dr*math.Cos(theta), wrapPhi(phi+dr*math.Sin(theta)), jetCharged, jetPhoton, false)
	}
}

// softVertex adds n soft particles of one vertex, the fraction clustered of them spread around
// 1 + Poisson(minijets) minijet axes, the others diffuse.
func (s *simulator) softVertex(n int, clustered float64, isPU bool) {
	type axis struct{ eta, phi float64 }
	axes := make([]axis, 1+s.poisson(minijets))
	for i := range axes {
		axes[i] = axis{s.rng.NormFloat64() * softEtaSigma, s.uniformPhi()}
	}
	for i := 0; i < n; i++ {
		pt := softPTScale * (math.Pow(1-s.rng.Float64(), -1/softPTShape) - 1)
		var eta, phi float64
		if s.rng.Float64() < clustered {
			a := axes[s.rng.IntN(len(axes))]
			eta = a.eta + s.rng.NormFloat64()*minijetSigma
			phi = wrapPhi(a.phi + s.rng.NormFloat64()*minijetSigma)
		} else {
			eta = s.rng.NormFloat64() * softEtaSigma
			phi = s.uniformPhi()
		}
		s.particle(pt, eta, phi, softCharged, softPhoton, isPU)
	}
}

// Particle species: PDG code magnitudes and masses in GeV.
const (
	pdgNeutralHadron = 0
	pdgElectron      = 11
	pdgMuon          = 13
	pdgPhoton        = 22
	pdgPion          = 211
	massPion         = 0.13957
	massElectron     = 0.000511
	massMuon         = 0.10566
)

// particle draws a species (charged with probability chargedFrac: π± 98.5%, e± 0.8%, μ± 0.7%; then
// photon; else neutral hadron) and appends the candidate, unless |η| > etaMax.
func (s *simulator) particle(pt, eta, phi, chargedFrac, photonFrac float64, isPU bool) {
	u := s.rng.Float64()
	var charge, pdg int32
	var mass float64
	switch {
	case u < chargedFrac:
		charge = 1
		if s.rng.IntN(2) == 0 {
			charge = -1
		}
		switch w := s.rng.Float64(); {
		case w < 0.985:
			pdg, mass = pdgPion*charge, massPion
		case w < 0.993:
			pdg, mass = -pdgElectron*charge, massElectron
		default:
			pdg, mass = -pdgMuon*charge, massMuon
		}
	case u < chargedFrac+photonFrac:
		pdg = pdgPhoton
	default:
		pdg = pdgNeutralHadron
	}
	var truth, reco int32
	if isPU {
		truth, reco = 1, 1
	}
	if charge == 0 {
		reco = 0
	} else if s.rng.Float64() < recoPUFlip {
		reco = 1 - reco
	}
	if math.Abs(eta) > etaMax {
		return
	}
	e := &s.ev
	e.PT = append(e.PT, float32(pt))
	e.Eta = append(e.Eta, float32(eta))
	e.Phi = append(e.Phi, float32(phi))
	e.Mass = append(e.Mass, float32(mass))
	e.Charge = append(e.Charge, charge)
	e.PdgID = append(e.PdgID, pdg)
	e.IsRecoPU = append(e.IsRecoPU, reco)
	e.IsPU = append(e.IsPU, truth)
}

// poisson draws Poisson(mean), 0 when mean <= 0.
func (s *simulator) poisson(mean float64) int {
	if mean <= 0 {
		return 0
	}
	return int(distuv.Poisson{Lambda: mean, Src: s.rng}.Rand())
}

// negBin draws a negative binomial of the given mean and shape k, as a Gamma-Poisson mixture.
func (s *simulator) negBin(mean, k float64) int {
	return s.poisson(distuv.Gamma{Alpha: k, Beta: k / mean, Src: s.rng}.Rand())
}

// uniformPhi draws φ uniformly in (−π, π].
func (s *simulator) uniformPhi() float64 { return math.Pi - 2*math.Pi*s.rng.Float64() }

// wrapPhi maps phi into (−π, π].
func wrapPhi(phi float64) float64 {
	phi = math.Mod(phi+math.Pi, 2*math.Pi)
	if phi <= 0 {
		phi += 2 * math.Pi
	}
	return phi - math.Pi
}
