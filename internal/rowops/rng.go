package rowops

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"unsafe"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// RNGBitGenerator (dropout's random bits, one op per dropout) fills its output from a PCG generator
// seeded by the first two words of the state [3] uint64. simplego takes the generator's 64-bit
// outputs a byte at a time, branching per byte (about 1 ns per byte: a ninth of a Physics GCN
// epoch); rngBitGenerator stores each output whole, little-endian, which is the same bytes in the
// same order, and leaves the generator in the same state.

//go:linkname simplegoRNGBitGenerator github.com/gomlx/gomlx/backends/simplego.execRNGBitGenerator
func simplegoRNGBitGenerator(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) ([]*simplego.Buffer, error)

//go:linkname getBufferForShape github.com/gomlx/gomlx/backends/simplego.(*Backend).getBufferForShape
func getBufferForShape(backend *simplego.Backend, shape shapes.Shape) *simplego.Buffer

// rngBitGenerator is simplego's RNGBitGenerator with whole 64-bit stores: outputs the new state
// and the random values.
func rngBitGenerator(backend *simplego.Backend, node *simplego.Node, inputs []*simplego.Buffer, inputsOwned []bool) ([]*simplego.Buffer, error) {
	stateShape := shapeOf(backend, inputs[0])
	if stateShape.DType != dtypes.Uint64 || stateShape.Size() < 2 {
		return simplegoRNGBitGenerator(backend, node, inputs, inputsOwned)
	}
	outputs := nodesOf(nodeField(node, "multiOutputsNodes")) // the new state, the values
	state := dataOf(backend, inputs[0]).([]uint64)
	rng := rand.NewPCG(state[0], state[1])
	values := getBufferForShape(backend, nodeShape(outputs[1]))
	fillRandomBytes(bytesOf(dataOf(backend, values)), rng)

	next := inputs[0]
	if inputsOwned[0] {
		inputs[0] = nil // reused as the new state
	} else { // the words after the generator's are the input's (simplego leaves a pooled buffer's)
		next = getBufferForShape(backend, nodeShape(outputs[0]))
		copy(dataOf(backend, next).([]uint64), state)
	}
	marshalled, err := rng.MarshalBinary() // "pcg:" then the generator's two words, big-endian
	if err != nil {
		return nil, err
	}
	// simplego reads the words little-endian (byte-swapped): the same here, so that the next
	// draws are simplego's.
	newState := dataOf(backend, next).([]uint64)
	newState[0], newState[1] = binary.LittleEndian.Uint64(marshalled[4:12]), binary.LittleEndian.Uint64(marshalled[12:20])
	return []*simplego.Buffer{next, values}, nil
}

// fillRandomBytes fills out with rng's 64-bit outputs, each stored little-endian (the last one
// truncated): byte i is byte i mod 8 of output i / 8, as simplego's loop takes them.
func fillRandomBytes(out []byte, rng *rand.PCG) {
	i := 0
	for ; i+8 <= len(out); i += 8 {
		binary.LittleEndian.PutUint64(out[i:i+8], rng.Uint64())
	}
	if i < len(out) {
		bits := rng.Uint64()
		for ; i < len(out); i, bits = i+1, bits>>8 {
			out[i] = byte(bits)
		}
	}
}

// bytesOf returns the memory of flat, a slice of a fixed-size element type, as bytes.
func bytesOf(flat any) []byte {
	v := reflect.ValueOf(flat)
	if v.Len() == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*int(v.Type().Elem().Size()))
}
