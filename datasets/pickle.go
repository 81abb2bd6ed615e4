package datasets

import (
	"bytes"
	"fmt"
	"os"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"
)

// unpickle reads the Python pickle at path (protocols 0-5, Python 2 strings as raw bytes, i.e.
// latin1), understanding the classes the project's data files use: numpy arrays and dtypes
// (numpy.core.multiarray._reconstruct), scipy.sparse csr_matrix and collections.defaultdict.
// Numpy arrays come back as *ndarray, csr_matrix as *pickledCSR, dicts and defaultdicts as
// *types.Dict, lists as *types.List, tuples as *types.Tuple. A damaged file is an error naming it;
// unpickle never panics.
func unpickle(path string) (value any, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	if err := scanPickle(data); err != nil {
		return nil, fmt.Errorf("datasets: %s is not a valid pickle (truncated or damaged?): %w", path, err)
	}
	defer func() {
		if r := recover(); r != nil {
			value, err = nil, fmt.Errorf("datasets: %s is not a valid pickle: %v", path, r)
		}
	}()
	u := pickle.NewUnpickler(bytes.NewReader(data))
	u.FindClass = findPickleClass
	value, err = u.Load()
	if err != nil {
		return nil, fmt.Errorf("datasets: %s is not a valid pickle (truncated or damaged?): %w", path, err)
	}
	return value, nil
}

// findPickleClass resolves the globals a pickle refers to.
func findPickleClass(module, name string) (any, error) {
	switch module + "." + name {
	case "numpy.core.multiarray._reconstruct", "numpy._core.multiarray._reconstruct":
		return pickleReconstruct{}, nil
	case "numpy.ndarray":
		return pickleNDArrayClass{}, nil
	case "numpy.dtype":
		return pickleDtypeClass{}, nil
	case "scipy.sparse.csr.csr_matrix", "scipy.sparse._csr.csr_matrix":
		return pickleCSRClass{}, nil
	case "collections.defaultdict":
		return pickleDefaultDict{}, nil
	case "__builtin__.list", "builtins.list":
		return pickleListClass{}, nil
	}
	return nil, fmt.Errorf("unsupported class %s.%s", module, name)
}

// pickleNDArrayClass stands for numpy.ndarray.
type pickleNDArrayClass struct{}

// pickleListClass stands for the builtin list (a defaultdict's factory).
type pickleListClass struct{}

// pickleReconstruct is numpy.core.multiarray._reconstruct(ndarray, (0,), b'b'): an empty array
// whose state arrives with BUILD.
type pickleReconstruct struct{}

// Call implements types.Callable.
func (pickleReconstruct) Call(args ...any) (any, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("_reconstruct takes 3 arguments, got %d", len(args))
	}
	if _, ok := args[0].(pickleNDArrayClass); !ok {
		return nil, fmt.Errorf("_reconstruct of %T, expected numpy.ndarray", args[0])
	}
	return &ndarray{}, nil
}

// PySetState implements types.PyStateSettable: state is (version, shape, dtype, is_fortran, data).
func (a *ndarray) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok || t.Len() != 5 {
		return fmt.Errorf("ndarray state is %T, expected a 5-tuple", state)
	}
	shape, ok := t.Get(1).(*types.Tuple)
	if !ok {
		return fmt.Errorf("ndarray shape is %T, expected a tuple", t.Get(1))
	}
	a.Shape = make([]int, shape.Len())
	for i := range a.Shape {
		d, ok := shape.Get(i).(int)
		if !ok || d < 0 {
			return fmt.Errorf("ndarray dimension %v, expected a non-negative int", shape.Get(i))
		}
		a.Shape[i] = d
	}
	dtype, ok := t.Get(2).(*pickleDtype)
	if !ok {
		return fmt.Errorf("ndarray dtype is %T, expected numpy.dtype", t.Get(2))
	}
	a.Dtype = dtype.order + dtype.kind
	fortran, ok := t.Get(3).(bool)
	if !ok {
		return fmt.Errorf("ndarray is_fortran is %T, expected bool", t.Get(3))
	}
	a.Fortran = fortran
	switch data := t.Get(4).(type) {
	case string:
		a.Data = []byte(data)
	case []byte:
		a.Data = data
	default:
		return fmt.Errorf("ndarray data is %T, expected bytes (object arrays are not supported)", data)
	}
	return a.check()
}

// pickleDtypeClass is numpy.dtype.
type pickleDtypeClass struct{}

// pickleDtype is a numpy.dtype: kind like "f4", byte order from its state.
type pickleDtype struct{ kind, order string }

// Call implements types.Callable: dtype(kind, align, copy).
func (pickleDtypeClass) Call(args ...any) (any, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("numpy.dtype called without arguments")
	}
	kind, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("numpy.dtype of %T, expected a type string", args[0])
	}
	return &pickleDtype{kind: kind, order: "|"}, nil
}

// PySetState implements types.PyStateSettable: state is (version, byteorder, ...).
func (d *pickleDtype) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok || t.Len() < 2 {
		return fmt.Errorf("numpy.dtype state is %T, expected a tuple", state)
	}
	order, ok := t.Get(1).(string)
	if !ok || len(order) != 1 {
		return fmt.Errorf("numpy.dtype byte order %v, expected one of < > | =", t.Get(1))
	}
	d.order = order
	return nil
}

// pickleCSRClass is scipy.sparse.csr_matrix.
type pickleCSRClass struct{}

// PyNew implements types.PyNewable.
func (pickleCSRClass) PyNew(...any) (any, error) { return &pickledCSR{}, nil }

// pickledCSR is the __dict__ of a pickled scipy csr_matrix.
type pickledCSR struct {
	shape                 [2]int
	indptr, indices, data *ndarray
}

// PyDictSet implements types.PyDictSettable.
func (m *pickledCSR) PyDictSet(key, value any) error {
	name, _ := key.(string)
	switch name {
	case "_shape":
		t, ok := value.(*types.Tuple)
		if !ok || t.Len() != 2 {
			return fmt.Errorf("csr_matrix _shape is %v, expected a pair", value)
		}
		for i := range 2 {
			d, ok := t.Get(i).(int)
			if !ok || d < 0 {
				return fmt.Errorf("csr_matrix _shape is %v, expected non-negative ints", value)
			}
			m.shape[i] = d
		}
	case "indptr", "indices", "data":
		a, ok := value.(*ndarray)
		if !ok {
			return fmt.Errorf("csr_matrix %s is %T, expected a numpy array", name, value)
		}
		switch name {
		case "indptr":
			m.indptr = a
		case "indices":
			m.indices = a
		default:
			m.data = a
		}
	}
	return nil
}

// toCSR validates the pickled matrix and converts it, sorting column indices within rows.
func (m *pickledCSR) toCSR() (*CSR, error) {
	if m.indptr == nil || m.indices == nil || m.data == nil {
		return nil, fmt.Errorf("csr_matrix lacks indptr, indices or data")
	}
	ptr, err := m.indptr.int64s()
	if err != nil {
		return nil, fmt.Errorf("csr_matrix indptr: %w", err)
	}
	idx, err := m.indices.int64s()
	if err != nil {
		return nil, fmt.Errorf("csr_matrix indices: %w", err)
	}
	val, err := m.data.float32s()
	if err != nil {
		return nil, fmt.Errorf("csr_matrix data: %w", err)
	}
	return newCSR(m.shape[0], m.shape[1], ptr, idx, val)
}

// pickleDefaultDict is collections.defaultdict; calling it yields an empty *types.Dict.
type pickleDefaultDict struct{}

// Call implements types.Callable.
func (pickleDefaultDict) Call(...any) (any, error) { return types.NewDict(), nil }
