package datasets

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ndarray is a numpy array as stored in a .npy member or a pickle: raw bytes plus dtype and shape.
type ndarray struct {
	// Dtype is numpy's type string with its byte order, e.g. "<f4", "<i8", "|b1".
	Dtype string
	// Shape holds the dimensions; empty for a scalar.
	Shape []int
	// Fortran is true when Data is in column-major order.
	Fortran bool
	// Data holds Len()*itemsize bytes.
	Data []byte
}

// Len is the number of elements, the product of Shape.
func (a *ndarray) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// kind returns the dtype without byte order ("f4", "i8", "b1") and whether it is big-endian.
func (a *ndarray) kind() (string, bool) {
	if len(a.Dtype) > 0 && (a.Dtype[0] == '<' || a.Dtype[0] == '>' || a.Dtype[0] == '|' || a.Dtype[0] == '=') {
		return a.Dtype[1:], a.Dtype[0] == '>'
	}
	return a.Dtype, false
}

// itemSize is the byte width of one element of a supported dtype, or an error naming the dtype.
func (a *ndarray) itemSize() (int, error) {
	k, _ := a.kind()
	switch k {
	case "b1", "u1", "i1":
		return 1, nil
	case "i2", "u2":
		return 2, nil
	case "i4", "u4", "f4":
		return 4, nil
	case "i8", "u8", "f8":
		return 8, nil
	}
	return 0, fmt.Errorf("unsupported dtype %q", a.Dtype)
}

// check verifies that Data holds exactly Len() elements of the dtype.
func (a *ndarray) check() error {
	size, err := a.itemSize()
	if err != nil {
		return err
	}
	for _, d := range a.Shape {
		if d < 0 {
			return fmt.Errorf("negative dimension in shape %v", a.Shape)
		}
	}
	if want := a.Len() * size; len(a.Data) != want {
		return fmt.Errorf("dtype %s shape %v needs %d bytes of data, found %d", a.Dtype, a.Shape, want, len(a.Data))
	}
	return nil
}

// checkShape returns an error unless the array has the given rank, and the given size for every
// dimension of want that is not -1.
func (a *ndarray) checkShape(want ...int) error {
	if len(a.Shape) != len(want) {
		return fmt.Errorf("shape %v, expected rank %d", a.Shape, len(want))
	}
	for i, w := range want {
		if w >= 0 && a.Shape[i] != w {
			return fmt.Errorf("shape %v, expected dimension %d to be %d", a.Shape, i, w)
		}
	}
	return nil
}

// order returns the byte order of the data.
func (a *ndarray) order() binary.ByteOrder {
	if _, big := a.kind(); big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// int64s returns the elements of an integer or boolean array in storage order.
func (a *ndarray) int64s() ([]int64, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	k, _ := a.kind()
	bo := a.order()
	out := make([]int64, a.Len())
	for i := range out {
		switch k {
		case "b1", "u1":
			out[i] = int64(a.Data[i])
		case "i1":
			out[i] = int64(int8(a.Data[i]))
		case "i2":
			out[i] = int64(int16(bo.Uint16(a.Data[2*i:])))
		case "u2":
			out[i] = int64(bo.Uint16(a.Data[2*i:]))
		case "i4":
			out[i] = int64(int32(bo.Uint32(a.Data[4*i:])))
		case "u4":
			out[i] = int64(bo.Uint32(a.Data[4*i:]))
		case "i8", "u8":
			out[i] = int64(bo.Uint64(a.Data[8*i:]))
		default:
			return nil, fmt.Errorf("dtype %s, expected an integer or boolean array", a.Dtype)
		}
	}
	return out, nil
}

// float32s returns the elements of a floating-point or integer array as float32, in storage order.
func (a *ndarray) float32s() ([]float32, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	k, _ := a.kind()
	bo := a.order()
	switch k {
	case "f4":
		out := make([]float32, a.Len())
		for i := range out {
			out[i] = math.Float32frombits(bo.Uint32(a.Data[4*i:]))
		}
		return out, nil
	case "f8":
		out := make([]float32, a.Len())
		for i := range out {
			out[i] = float32(math.Float64frombits(bo.Uint64(a.Data[8*i:])))
		}
		return out, nil
	}
	ints, err := a.int64s()
	if err != nil {
		return nil, fmt.Errorf("dtype %s, expected a numeric array", a.Dtype)
	}
	out := make([]float32, len(ints))
	for i, v := range ints {
		out[i] = float32(v)
	}
	return out, nil
}

// rowMajorIndex maps the row-major position (i, j) of a 2-D array to its storage position.
func (a *ndarray) rowMajorIndex(i, j int) int {
	if a.Fortran {
		return i + j*a.Shape[0]
	}
	return i*a.Shape[1] + j
}
