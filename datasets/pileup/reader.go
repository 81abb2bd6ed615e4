package pileup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"

	"go-hep.org/x/hep/groot"
	"go-hep.org/x/hep/groot/rtree"
)

// TreeName is the Delphes event tree.
const TreeName = "Delphes"

// Branch names of the particle-flow candidates, as the reference code reads them (without its
// "PF/" prefix, which the reader also accepts: see ReadEvents).
const (
	BranchPT       = "PF.PT"
	BranchEta      = "PF.Eta"
	BranchPhi      = "PF.Phi"
	BranchMass     = "PF.Mass"
	BranchCharge   = "PF.Charge"
	BranchPdgID    = "PF.PdgID"
	BranchIsRecoPU = "PF.IsRecoPU"
	BranchIsPU     = "PF.IsPU"
)

// Event is one Delphes event's particle-flow candidates; every slice has one entry per candidate.
type Event struct {
	PT, Eta, Phi, Mass            []float32
	Charge, PdgID, IsRecoPU, IsPU []int32
}

// Len is the number of candidates.
func (e *Event) Len() int { return len(e.PT) }

// field binds one Event slice to its branch.
type field struct {
	name string
	f32  *[]float32
	i32  *[]int32
}

// fields lists the Event's slices with their branch names, in the order of the reference code.
func (e *Event) fields() []field {
	return []field{
		{name: BranchPT, f32: &e.PT}, {name: BranchEta, f32: &e.Eta}, {name: BranchPhi, f32: &e.Phi},
		{name: BranchMass, f32: &e.Mass}, {name: BranchCharge, i32: &e.Charge}, {name: BranchPdgID, i32: &e.PdgID},
		{name: BranchIsRecoPU, i32: &e.IsRecoPU}, {name: BranchIsPU, i32: &e.IsPU},
	}
}

// binding reads one branch of whatever numeric leaf type the file has and converts it to the
// Event's type after each entry.
type binding struct {
	field
	branch string        // name found in the file
	value  reflect.Value // *[]T of the leaf's Go type
}

// convert copies the entry just read into the Event slice.
func (b *binding) convert() {
	src := b.value.Elem()
	n := src.Len()
	switch {
	case b.f32 != nil:
		if s, ok := src.Interface().([]float32); ok {
			*b.f32 = append((*b.f32)[:0], s...)
			return
		}
		*b.f32 = resize(*b.f32, n)
		for i := 0; i < n; i++ {
			(*b.f32)[i] = float32(number(src.Index(i)))
		}
	default:
		if s, ok := src.Interface().([]int32); ok {
			*b.i32 = append((*b.i32)[:0], s...)
			return
		}
		*b.i32 = resize(*b.i32, n)
		for i := 0; i < n; i++ {
			(*b.i32)[i] = int32(number(src.Index(i)))
		}
	}
}

// resize returns s with length n, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// number is the value of a numeric reflect.Value as a float64.
func number(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return float64(v.Int())
	case reflect.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	default:
		return float64(v.Uint())
	}
}

// numericKinds are the leaf element kinds the reader converts.
var numericKinds = map[reflect.Kind]bool{
	reflect.Float32: true, reflect.Float64: true, reflect.Int8: true, reflect.Int16: true, reflect.Int32: true,
	reflect.Int64: true, reflect.Uint8: true, reflect.Uint16: true, reflect.Uint32: true, reflect.Uint64: true,
	reflect.Bool: true,
}

// ReadEvents streams the first n entries of the Delphes tree in the ROOT file at path (all of them
// when n <= 0 or n exceeds the tree, as uproot's entry_stop does), calling fn with each entry's index
// and candidates in order; only one entry is in memory at a time. ev is reused: fn must copy what it
// keeps. Each PF branch is looked up as "PF.PT" etc., then as the reference code's "PF/PF.PT"; leaves
// of any numeric type are converted to the Event's float32/int32. It returns the number of entries
// read. Errors name the file and, where it applies, the tree, branch or entry: a missing file, a file
// that is not ROOT, a truncated file, a tree without a needed branch, or fn's own error. Bytes damaged
// inside a file of the right length are not always caught: groot v0.40.0 inflates baskets in its own
// read-ahead goroutine, where a corrupt basket panics out of reach of a recover.
func ReadEvents(path string, n int, fn func(entry int, ev *Event) error) (int, error) {
	if info, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("pileup: %s does not exist (expected a Delphes ROOT file with tree %q)", path, TreeName)
		}
		return 0, fmt.Errorf("pileup: %w", err)
	} else if info.IsDir() {
		return 0, fmt.Errorf("pileup: %s is a directory, expected a Delphes ROOT file", path)
	}
	file, err := openROOT(path)
	if err != nil {
		return 0, err
	}
	defer func() { _ = file.Close() }()
	obj, err := file.Get(TreeName)
	if err != nil {
		return 0, fmt.Errorf("pileup: %s has no tree %q: %v", path, TreeName, err)
	}
	tree, ok := obj.(rtree.Tree)
	if !ok {
		return 0, fmt.Errorf("pileup: %s: %q is a %s, expected a TTree", path, TreeName, obj.Class())
	}
	var ev Event
	bindings, err := bind(tree, &ev, path)
	if err != nil {
		return 0, err
	}
	end := tree.Entries()
	if n > 0 && int64(n) < end {
		end = int64(n)
	}
	rvars := make([]rtree.ReadVar, len(bindings))
	for i, b := range bindings {
		rvars[i] = rtree.ReadVar{Name: b.branch, Value: b.value.Interface()}
	}
	r, err := newReader(tree, rvars, end)
	if err != nil {
		return 0, fmt.Errorf("pileup: %s: %w", path, err)
	}
	defer func() { _ = r.Close() }()
	read := 0
	err = readEntries(r, func(entry int64) error {
		for i := range bindings {
			bindings[i].convert()
		}
		if err := ev.check(); err != nil {
			return fmt.Errorf("entry %d: %w", entry, err)
		}
		read++
		return fn(int(entry), &ev)
	})
	if err != nil {
		return read, fmt.Errorf("pileup: %s: %w", path, err)
	}
	return read, nil
}

// openROOT opens path with groot, turning its failures (and panics on damaged headers) into errors
// that say the file is not a readable ROOT file.
func openROOT(path string) (file *groot.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("pileup: %s is not a readable ROOT file (damaged or truncated): %v", path, p)
		}
	}()
	file, err = groot.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pileup: %s is not a readable ROOT file (expected a Delphes ROOT file; truncated or another format?): %v", path, err)
	}
	return file, nil
}

// newReader makes a groot reader of the first end entries, turning panics into errors.
func newReader(tree rtree.Tree, rvars []rtree.ReadVar, end int64) (r *rtree.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading tree %q: %v", TreeName, p)
		}
	}()
	return rtree.NewReader(tree, rvars, rtree.WithRange(0, end))
}

// readEntries runs r, calling fn after each entry is read. fn's error is returned as it is; a
// groot error or panic (a damaged basket) becomes an error naming the entry.
func readEntries(r *rtree.Reader, fn func(entry int64) error) (err error) {
	last := int64(-1)
	var fnErr error
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading entry %d (damaged or truncated file?): %v", last+1, p)
		}
	}()
	err = r.Read(func(ctx rtree.RCtx) error {
		last = ctx.Entry
		fnErr = fn(ctx.Entry)
		return fnErr
	})
	switch {
	case fnErr != nil:
		return fnErr
	case err != nil:
		return fmt.Errorf("reading entry %d (damaged or truncated file?): %w", last+1, err)
	}
	return nil
}

// bind finds each Event field's branch in tree (canonical name, then the "PF/" alias) and makes a
// value of its leaf's type to read into.
func bind(tree rtree.Tree, ev *Event, path string) ([]binding, error) {
	var out []binding
	for _, f := range ev.fields() {
		var br rtree.Branch
		name := f.name
		for _, candidate := range []string{f.name, "PF/" + f.name} {
			if br = tree.Branch(candidate); br != nil {
				name = candidate
				break
			}
		}
		if br == nil {
			return nil, fmt.Errorf("pileup: %s: tree %q has no branch %q (nor %q); a Delphes PF tree needs %s",
				path, TreeName, f.name, "PF/"+f.name, branchList())
		}
		leaves := br.Leaves()
		if len(leaves) == 0 {
			return nil, fmt.Errorf("pileup: %s: branch %q of tree %q has no leaf", path, name, TreeName)
		}
		typ := leaves[0].Type()
		for typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array {
			typ = typ.Elem()
		}
		if !numericKinds[typ.Kind()] {
			return nil, fmt.Errorf("pileup: %s: branch %q of tree %q holds %s, expected numbers", path, name, TreeName, leaves[0].TypeName())
		}
		out = append(out, binding{field: f, branch: name, value: reflect.New(reflect.SliceOf(typ))})
	}
	return out, nil
}

// branchList is the needed branches, for error messages.
func branchList() string {
	var ev Event
	s := ""
	for i, f := range ev.fields() {
		if i > 0 {
			s += ", "
		}
		s += f.name
	}
	return s
}

// check verifies that every slice of one entry has the same length.
func (e *Event) check() error {
	n := len(e.PT)
	for _, f := range e.fields() {
		m := 0
		if f.f32 != nil {
			m = len(*f.f32)
		} else {
			m = len(*f.i32)
		}
		if m != n {
			return fmt.Errorf("branch %s has %d values, %s has %d", f.name, m, BranchPT, n)
		}
	}
	return nil
}
