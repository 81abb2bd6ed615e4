package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/geomix-go/geomix/internal/atomicfile"
	"github.com/geomix-go/geomix/internal/progress"
)

// ErrMissing marks a data file that is not under the data root and could not be downloaded
// (offline, no URL, or the download failed before any byte was verified). Test with errors.Is; a
// checksum mismatch or a damaged file is a different error.
var ErrMissing = errors.New("missing data file")

// fileSpec describes one raw data file: where it lives under the data root, where to download it
// and what it must hash to.
type fileSpec struct {
	// Path is relative to the data root, with forward slashes, e.g. "planetoid/ind.cora.x".
	Path string
	// URL is the canonical download address; "" when the file cannot be downloaded.
	URL string
	// SHA256 is the expected lowercase hex digest; "" when unknown (nothing is verified then).
	SHA256 string
	// ContentSHA256 is, for a gzip file whose compressed bytes vary between copies, the digest of
	// its decompressed content, which is verified instead of SHA256 and Size (Fashion-MNIST).
	ContentSHA256 string
	// Size is the expected size in bytes; 0 when unknown.
	Size int64
}

// fetch returns the absolute path of the file f under the data root. A present file has its size
// checked (and its sha256 too with Options.VerifyChecksums). A missing file is downloaded from f.URL
// unless Options.Offline or its sha256 is unknown (stl10, cifar10: a download could not be
// verified): into a temporary file in the same directory, with a progress bar on Options.Progress,
// verified against f.SHA256 and f.Size, then renamed into place, so an interrupted or corrupt
// download never leaves a file at Path.
func (o Options) fetch(f fileSpec) (string, error) {
	path, err := filepath.Abs(filepath.Join(o.root(), filepath.FromSlash(f.Path)))
	if err != nil {
		return "", fmt.Errorf("datasets: resolving %s: %w", f.Path, err)
	}
	info, err := os.Stat(path)
	switch {
	case err == nil:
		if info.IsDir() {
			return "", fmt.Errorf("datasets: %s is a directory, expected the data file %s", path, f.Path)
		}
		if f.Size > 0 && info.Size() != f.Size {
			return "", fmt.Errorf("datasets: %s has %d bytes, expected %d (a damaged or different copy; delete it to download %s again)",
				path, info.Size(), f.Size, f.URL)
		}
		if o.VerifyChecksums && f.SHA256 != "" {
			if err := checkSHA256(path, f.SHA256); err != nil {
				return "", err
			}
		}
		if o.VerifyChecksums && f.ContentSHA256 != "" {
			if _, err := readGzipContent(path, f.ContentSHA256); err != nil {
				return "", err
			}
		}
		return path, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("datasets: %s: %w", path, err)
	}
	if f.URL == "" {
		return "", fmt.Errorf("datasets: %w %s (it has no download URL)", ErrMissing, path)
	}
	if f.SHA256 == "" && f.ContentSHA256 == "" {
		return "", fmt.Errorf("datasets: %w %s (not downloaded automatically: no sha256 is known to verify a download; "+
			"put a copy there by hand, published at %s)", ErrMissing, path, f.URL)
	}
	if o.Offline {
		return "", fmt.Errorf("datasets: %w %s (offline; download it from %s)", ErrMissing, path, f.URL)
	}
	if err := o.download(f, path); err != nil {
		return "", err
	}
	return path, nil
}

// download fetches f.URL into path atomically (see atomicfile.Write), verifying size and sha256:
// a failed or wrong download leaves no file.
func (o Options) download(f fileSpec, path string) error {
	resp, err := http.Get(f.URL)
	if err != nil {
		return fmt.Errorf("datasets: %w %s: downloading %s: %v", ErrMissing, path, f.URL, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("datasets: %w %s: downloading %s: HTTP %s", ErrMissing, path, f.URL, resp.Status)
	}
	total := resp.ContentLength
	if total <= 0 {
		total = f.Size
	}
	if total <= 0 {
		total = -1
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		bar := progress.New(o.progress(), total, "download "+f.Path, true)
		hash := sha256.New()
		var content bytes.Buffer // the gzip bytes, when their decompressed content is verified
		sinks := []io.Writer{w, hash, bar}
		if f.ContentSHA256 != "" {
			sinks = append(sinks, &content)
		}
		n, err := io.Copy(io.MultiWriter(sinks...), resp.Body)
		if err != nil {
			return fmt.Errorf("downloading %s from %s: %w", f.Path, f.URL, err)
		}
		_ = bar.Finish()
		if f.Size > 0 && n != f.Size {
			return fmt.Errorf("downloaded %s from %s has %d bytes, expected %d", f.Path, f.URL, n, f.Size)
		}
		if got := hex.EncodeToString(hash.Sum(nil)); f.SHA256 != "" && got != f.SHA256 {
			return fmt.Errorf("downloaded %s from %s has sha256 %s, expected %s", f.Path, f.URL, got, f.SHA256)
		}
		if f.ContentSHA256 != "" {
			return checkGzipContent(f.Path+" downloaded from "+f.URL, content.Bytes(), f.ContentSHA256)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	return nil
}

// checkSHA256 hashes the file at path and compares it with want (lowercase hex).
func checkSHA256(path, want string) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer func() { _ = file.Close() }()
	hash := sha256.New()
	if _, err := io.Copy(hash, file); err != nil {
		return fmt.Errorf("datasets: reading %s: %w", path, err)
	}
	if got := hex.EncodeToString(hash.Sum(nil)); got != want {
		return fmt.Errorf("datasets: %s has sha256 %s, expected %s", path, got, want)
	}
	return nil
}
