package pileup

import (
	"math/rand/v2"
	"testing"
)

// benchmarkBuild measures BuildEvent (cuts, ΔR edges, features) on simulated gg events at pu and
// reports events/s.
func benchmarkBuild(b *testing.B, pu int) {
	sim, err := newSimulator("gg", pu, 1)
	if err != nil {
		b.Fatal(err)
	}
	events := make([]Event, 16)
	for i := range events {
		events[i] = copyEvent(sim.next())
	}
	rng := rand.New(rand.NewPCG(1, 1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildEvent(i, &events[i%len(events)], DrawFrequencies(rng)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkBuildEventPU30 builds gg PU30 graphs (about 420 nodes, 3,600 directed edges).
func BenchmarkBuildEventPU30(b *testing.B) { benchmarkBuild(b, 30) }

// BenchmarkBuildEventPU140 builds gg PU140 graphs (about 1,570 nodes, 42,000 directed edges).
func BenchmarkBuildEventPU140(b *testing.B) { benchmarkBuild(b, 140) }

// BenchmarkBruteForceEdgesPU140 is the dense N × N search the grid replaces, for comparison.
func BenchmarkBruteForceEdgesPU140(b *testing.B) {
	sim, _ := newSimulator("gg", 140, 1)
	g, err := BuildEvent(0, sim.next(), Frequencies{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bruteForceEdges(g.Particles.Eta, g.Particles.Phi)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
