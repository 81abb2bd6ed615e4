package datasets

import (
	"os"
	"strings"
	"testing"
)

// TestFilesMatchRealData checks every listed file with a known checksum against the real data root
// (size and sha256), so docs/data.md's table and the downloader verify the published bytes.
func TestFilesMatchRealData(t *testing.T) {
	root := coreDataRoot(t)
	files := Files()
	if len(files) != 24+2+2+21+1+1+2+2+8 {
		t.Fatalf("Files() lists %d files, want 63", len(files))
	}
	opts := Options{Root: root, Offline: true, VerifyChecksums: true}
	for _, f := range files {
		if (f.SHA256 == "" && f.ContentSHA256 == "") || f.Path == news20Archive.Path {
			continue // unknown checksum, or an archive that is unpacked, not kept
		}
		if _, err := opts.fetch(fileSpec{Path: f.Path, URL: f.URL, SHA256: f.SHA256, Size: f.Size, ContentSHA256: f.ContentSHA256}); err != nil {
			t.Errorf("%s: %v", f.Path, err)
		}
	}
}

// TestDataDocListsFiles keeps the file table of docs/data.md in step with the loaders.
func TestDataDocListsFiles(t *testing.T) {
	doc, err := os.ReadFile("../docs/data.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Files() {
		if !strings.Contains(string(doc), f.Path) || !strings.Contains(string(doc), f.SHA256+f.ContentSHA256) {
			t.Errorf("docs/data.md does not list %s with its sha256 %q: regenerate its table with `go run ./reproduce datasets --files`", f.Path, f.SHA256+f.ContentSHA256)
		}
	}
}
