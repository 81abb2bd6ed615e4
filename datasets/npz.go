package datasets

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// npzFile is an open numpy .npz archive (a zip of .npy members, stored or deflated).
type npzFile struct {
	path string
	zr   *zip.ReadCloser
}

// openNPZ opens the .npz at path; a file that is not a zip archive is an error naming it.
func openNPZ(path string) (*npzFile, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s is not a readable .npz (zip) archive: %w", path, err)
	}
	return &npzFile{path: path, zr: zr}, nil
}

// Close releases the archive.
func (f *npzFile) Close() error { return f.zr.Close() }

// has reports whether the archive holds member name (without ".npy").
func (f *npzFile) has(name string) bool {
	for _, m := range f.zr.File {
		if m.Name == name+".npy" {
			return true
		}
	}
	return false
}

// array reads member name (without ".npy") and checks it has the given shape (-1 = any size).
func (f *npzFile) array(name string, shape ...int) (*ndarray, error) {
	member, err := f.zr.Open(name + ".npy")
	if err != nil {
		return nil, fmt.Errorf("datasets: %s has no member %s.npy: %w", f.path, name, err)
	}
	defer func() { _ = member.Close() }()
	raw, err := io.ReadAll(member)
	if err != nil {
		return nil, fmt.Errorf("datasets: reading %s.npy in %s: %w", name, f.path, err)
	}
	a, err := parseNPY(raw)
	if err == nil {
		err = a.checkShape(shape...)
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: %s.npy in %s: %w", name, f.path, err)
	}
	return a, nil
}

// npyMagic starts every .npy file.
const npyMagic = "\x93NUMPY"

// parseNPY decodes a .npy file (format versions 1 to 3) held in memory.
func parseNPY(raw []byte) (*ndarray, error) {
	if len(raw) < 10 || string(raw[:6]) != npyMagic {
		return nil, fmt.Errorf("not a .npy file (bad magic)")
	}
	major := raw[6]
	var headerLen, start int
	switch major {
	case 1:
		headerLen, start = int(binary.LittleEndian.Uint16(raw[8:10])), 10
	case 2, 3:
		if len(raw) < 12 {
			return nil, fmt.Errorf("truncated .npy header")
		}
		headerLen, start = int(binary.LittleEndian.Uint32(raw[8:12])), 12
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d", major)
	}
	if start+headerLen > len(raw) {
		return nil, fmt.Errorf("truncated .npy header: %d bytes announced, %d present", headerLen, len(raw)-start)
	}
	a, err := parseNPYHeader(string(raw[start : start+headerLen]))
	if err != nil {
		return nil, err
	}
	a.Data = raw[start+headerLen:]
	if err := a.check(); err != nil {
		return nil, err
	}
	return a, nil
}

// parseNPYHeader reads the Python dict literal of a .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (890, 2325), }.
func parseNPYHeader(h string) (*ndarray, error) {
	h = strings.TrimSpace(h)
	field := func(key string) (string, error) {
		i := strings.Index(h, "'"+key+"':")
		if i < 0 {
			return "", fmt.Errorf(".npy header %q has no %q", h, key)
		}
		return strings.TrimSpace(h[i+len(key)+3:]), nil
	}
	a := &ndarray{}
	descr, err := field("descr")
	if err != nil {
		return nil, err
	}
	if len(descr) < 2 || descr[0] != '\'' || strings.IndexByte(descr[1:], '\'') < 0 {
		return nil, fmt.Errorf(".npy header %q: descr is not a simple dtype string", h)
	}
	a.Dtype = descr[1 : 1+strings.IndexByte(descr[1:], '\'')]
	fortran, err := field("fortran_order")
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(fortran, "True"):
		a.Fortran = true
	case !strings.HasPrefix(fortran, "False"):
		return nil, fmt.Errorf(".npy header %q: fortran_order is neither True nor False", h)
	}
	shape, err := field("shape")
	if err != nil {
		return nil, err
	}
	end := strings.IndexByte(shape, ')')
	if !strings.HasPrefix(shape, "(") || end < 0 {
		return nil, fmt.Errorf(".npy header %q: shape is not a tuple", h)
	}
	for _, d := range strings.Split(shape[1:end], ",") {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return nil, fmt.Errorf(".npy header %q: bad dimension %q", h, d)
		}
		a.Shape = append(a.Shape, n)
	}
	return a, nil
}
