package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

const (
	// idxImagesMagic and idxLabelsMagic are the IDX magic numbers of [N, rows, cols] and [N] uint8
	// arrays (the MNIST file format).
	idxImagesMagic, idxLabelsMagic = 0x00000803, 0x00000801
	// fmnistSide is the side of a Fashion-MNIST image; fmnistRowPixels its pixels.
	fmnistSide      = 28
	fmnistRowPixels = fmnistSide * fmnistSide
)

// readGzipContent decompresses the gzip file at path and returns its content, checked against
// wantSHA256 (the sha256 of the decompressed bytes; "" checks nothing).
func readGzipContent(path, wantSHA256 string) ([]byte, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer func() { _ = file.Close() }()
	content, err := gunzipChecked(path, file, wantSHA256)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	return content, nil
}

// checkGzipContent checks that the gzip bytes gz (named what in errors) decompress to content of
// sha256 wantSHA256.
func checkGzipContent(what string, gz []byte, wantSHA256 string) error {
	_, err := gunzipChecked(what, bytes.NewReader(gz), wantSHA256)
	return err
}

// gunzipChecked decompresses r (named what in errors) and checks the content's sha256 against
// wantSHA256 ("" checks nothing).
func gunzipChecked(what string, r io.Reader, wantSHA256 string) ([]byte, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (expected gzip)", what, err)
	}
	content, err := io.ReadAll(gz)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (truncated or damaged gzip)", what, err)
	}
	if wantSHA256 != "" {
		sum := sha256.Sum256(content)
		if got := hex.EncodeToString(sum[:]); got != wantSHA256 {
			return nil, fmt.Errorf("%s: decompressed content has sha256 %s, expected %s (a damaged or different copy)", what, got, wantSHA256)
		}
	}
	return content, nil
}

// readIDXImages reads a gzipped IDX file of 28x28 uint8 images (magic 0x00000803), its content
// checked against wantSHA256, and returns the row-major [n, 784] pixels and n.
func readIDXImages(path, wantSHA256 string) ([]uint8, int, error) {
	content, err := readGzipContent(path, wantSHA256)
	if err != nil {
		return nil, 0, err
	}
	dims, err := idxHeader(path, content, idxImagesMagic, 3)
	if err != nil {
		return nil, 0, err
	}
	if dims[1] != fmnistSide || dims[2] != fmnistSide {
		return nil, 0, fmt.Errorf("datasets: %s holds %dx%d images, expected %dx%d", path, dims[1], dims[2], fmnistSide, fmnistSide)
	}
	return content[16:], dims[0], nil
}

// readIDXLabels reads a gzipped IDX file of uint8 labels (magic 0x00000801), its content checked
// against wantSHA256.
func readIDXLabels(path, wantSHA256 string) ([]uint8, error) {
	content, err := readGzipContent(path, wantSHA256)
	if err != nil {
		return nil, err
	}
	if _, err := idxHeader(path, content, idxLabelsMagic, 1); err != nil {
		return nil, err
	}
	return content[8:], nil
}

// idxHeader checks content's big-endian magic number and returns its rank dimensions, checking that
// the data after the header holds exactly their product of bytes.
func idxHeader(path string, content []byte, magic uint32, rank int) ([]int, error) {
	header := 4 + 4*rank
	if len(content) < 4 {
		return nil, fmt.Errorf("datasets: %s: %d bytes, too short for an IDX magic number", path, len(content))
	}
	if got := binary.BigEndian.Uint32(content); got != magic {
		return nil, fmt.Errorf("datasets: %s: IDX magic %#08x, expected %#08x (uint8 data of rank %d)", path, got, magic, rank)
	}
	if len(content) < header {
		return nil, fmt.Errorf("datasets: %s: %d bytes, too short for an IDX header of rank %d", path, len(content), rank)
	}
	dims := make([]int, rank)
	size := 1
	for i := range dims {
		dims[i] = int(binary.BigEndian.Uint32(content[4+4*i:]))
		size *= dims[i]
	}
	if len(content)-header != size {
		return nil, fmt.Errorf("datasets: %s: %d data bytes after the IDX header, expected %d for dimensions %v", path, len(content)-header, size, dims)
	}
	return dims, nil
}
