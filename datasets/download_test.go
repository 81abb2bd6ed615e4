package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileServer serves body at /data.bin and 404 elsewhere; it counts the requests.
func fileServer(t *testing.T, body []byte) (*httptest.Server, *int) {
	t.Helper()
	hits := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*hits++
		if r.URL.Path != "/data.bin" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestFetchDownloadsAndVerifies(t *testing.T) {
	body := []byte("hello geomix\n")
	srv, hits := fileServer(t, body)
	root := t.TempDir()
	var progress bytes.Buffer
	opts := Options{Root: root, Progress: &progress}
	spec := fileSpec{Path: "sub/data.bin", URL: srv.URL + "/data.bin", SHA256: sha256Hex(body), Size: int64(len(body))}
	path, err := opts.fetch(spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "sub", "data.bin"); path != want {
		t.Fatalf("path %q, want %q", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(body) {
		t.Fatalf("file content %q (%v), want %q", got, err, body)
	}
	if !strings.Contains(progress.String(), "download sub/data.bin") {
		t.Errorf("no progress bar on Options.Progress, got %q", progress.String())
	}
	// A second fetch uses the file on disk, also when offline and with checksum verification.
	opts.Offline, opts.VerifyChecksums = true, true
	if _, err := opts.fetch(spec); err != nil {
		t.Fatal(err)
	}
	if *hits != 1 {
		t.Fatalf("%d requests, want 1", *hits)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "sub"))
	if len(entries) != 1 {
		t.Fatalf("%d files in the folder, want only data.bin", len(entries))
	}
}

func TestFetchChecksumMismatch(t *testing.T) {
	body := []byte("tampered bytes")
	srv, _ := fileServer(t, body)
	root := t.TempDir()
	want := sha256Hex([]byte("the real bytes"))
	spec := fileSpec{Path: "data.bin", URL: srv.URL + "/data.bin", SHA256: want}
	_, err := Options{Root: root, Progress: io.Discard}.fetch(spec)
	if err == nil || errors.Is(err, ErrMissing) {
		t.Fatalf("a download with the wrong sha256 gave error %v, want a checksum error", err)
	}
	for _, part := range []string{"data.bin", want, sha256Hex(body)} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not name %q", err, part)
		}
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 0 {
		t.Fatalf("the failed download left %d file(s) behind, e.g. %s", len(entries), entries[0].Name())
	}
}

func TestFetchHTTP404(t *testing.T) {
	srv, _ := fileServer(t, nil)
	root := t.TempDir()
	spec := fileSpec{Path: "missing.bin", URL: srv.URL + "/missing.bin"}
	_, err := Options{Root: root, Progress: io.Discard}.fetch(spec)
	if err == nil || !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), spec.URL) {
		t.Fatalf("error %v, want an ErrMissing naming HTTP 404 and %s", err, spec.URL)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 0 {
		t.Fatalf("the failed download left %d file(s) behind", len(entries))
	}
}

func TestFetchOfflineMissing(t *testing.T) {
	srv, hits := fileServer(t, []byte("x"))
	root := t.TempDir()
	spec := fileSpec{Path: "planetoid/ind.cora.x", URL: srv.URL + "/data.bin"}
	_, err := Options{Root: root, Offline: true}.fetch(spec)
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), filepath.Join(root, "planetoid", "ind.cora.x")) ||
		!strings.Contains(err.Error(), spec.URL) {
		t.Fatalf("error %v, want one naming the missing path and its URL", err)
	}
	if *hits != 0 {
		t.Fatalf("offline fetch made %d request(s)", *hits)
	}
}

func TestFetchPresentFileWrongSizeOrHash(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f.bin"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Root: root, Offline: true}
	if _, err := opts.fetch(fileSpec{Path: "f.bin", Size: 4}); err == nil || !strings.Contains(err.Error(), "has 3 bytes, expected 4") {
		t.Fatalf("size check: error %v", err)
	}
	wrong := sha256Hex([]byte("abd"))
	if _, err := opts.fetch(fileSpec{Path: "f.bin", Size: 3, SHA256: wrong}); err != nil {
		t.Fatalf("without VerifyChecksums only the size is checked, got %v", err)
	}
	opts.VerifyChecksums = true
	_, err := opts.fetch(fileSpec{Path: "f.bin", Size: 3, SHA256: wrong})
	if err == nil || !strings.Contains(err.Error(), sha256Hex([]byte("abc"))) || !strings.Contains(err.Error(), wrong) {
		t.Fatalf("checksum check: error %v, want expected and actual sha256", err)
	}
}

func TestLoadUnknownNameListsNames(t *testing.T) {
	_, err := Load("no-such-set", Options{})
	if err == nil || !strings.Contains(err.Error(), "no-such-set") {
		t.Fatalf("error %v", err)
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
}
