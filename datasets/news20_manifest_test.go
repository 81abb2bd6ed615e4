package datasets

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateNews20Manifest = flag.Bool("update-news20-manifest", false,
	"rewrite news20_manifest.txt.gz from the 20news-bydate tree under $GEOMIX_DATA")

// news20ManifestText lists the documents of the tree under dir in the manifest's format.
func news20ManifestText(t *testing.T, dir string) []byte {
	t.Helper()
	paths, _, err := news20Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("# 20news-bydate, the 10 groups GeoMix uses: path under 20news/, size in bytes, sha256 with TABs read as LFs\n")
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(&b, "%s %d %x\n", filepath.ToSlash(rel), len(text), news20Digest(text))
	}
	return b.Bytes()
}

// TestNews20ManifestMatchesRealData checks that the embedded manifest lists exactly the documents
// of the corpus under $GEOMIX_DATA, with their sizes and digests (-update-news20-manifest rewrites it).
func TestNews20ManifestMatchesRealData(t *testing.T) {
	dir := filepath.Join(coreDataRoot(t), "20news")
	want := news20ManifestText(t, dir)
	if *updateNews20Manifest {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		_, _ = zw.Write(want)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("news20_manifest.txt.gz", gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote news20_manifest.txt.gz: %d bytes (%d uncompressed)", gz.Len(), len(want))
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(news20ManifestGz))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := got.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("the embedded manifest differs from the corpus under %s (rerun with -update-news20-manifest after checking why)", dir)
	}
	manifest, err := news20Manifest()
	if err != nil || len(manifest) != 9607 {
		t.Fatalf("manifest: %d entries, %v; want 9607", len(manifest), err)
	}
}

// news20Copy makes a 20news tree under a new root whose documents are symbolic links to the real
// ones, except the document rel, written with content; it returns the root and rel's path.
func news20Copy(t *testing.T, rel string, content func(orig []byte) []byte) (root, path string) {
	t.Helper()
	src := filepath.Join(coreDataRoot(t), "20news")
	root = t.TempDir()
	paths, _, err := news20Files(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		r, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, "20news", r)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if filepath.ToSlash(r) == rel {
			orig, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			writeFixtureBytes(t, filepath.Dir(dst), filepath.Base(dst), content(orig))
			path = dst
			continue
		}
		if err := os.Symlink(p, dst); err != nil {
			t.Fatal(err)
		}
	}
	return root, path
}

// TestNews20DamagedDocumentFails truncates one document, then alters one byte of another: loading
// (with and without VerifyChecksums) fails naming the document.
func TestNews20DamagedDocumentFails(t *testing.T) {
	cases := []struct {
		name, rel string
		damage    func([]byte) []byte
		want      string
	}{
		{"truncated", "20news-bydate-test/sci.med/59225", func(b []byte) []byte { return b[:len(b)-40] }, "bytes, expected"},
		{"garbled", "20news-bydate-train/rec.autos/101551", func(b []byte) []byte {
			b = slices.Clone(b)
			b[len(b)/2] ^= 0x20
			return b
		}, "has sha256"},
	}
	for _, c := range cases {
		root, path := news20Copy(t, c.rel, c.damage)
		if path == "" {
			t.Fatalf("%s is not in the corpus", c.rel)
		}
		for _, verify := range []bool{false, true} {
			_, err := Load("20news", Options{Root: root, Offline: true, VerifyChecksums: verify})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (verify %v): got %v, want an error naming %s and containing %q", c.name, verify, err, path, c.want)
			}
		}
	}
	if testing.Short() {
		t.Skip("-short: skipping a whole 20news load")
	}
	// A line-end preprocessing (LF -> TAB) changes no token and is accepted.
	root, _ := news20Copy(t, "20news-bydate-train/sci.space/59497", func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte{'\n'}, []byte{'\t'})
	})
	if _, err := Load("20news", Options{Root: root, Offline: true, Progress: io.Discard}); err != nil {
		t.Errorf("LFs as TABs: %v", err)
	}
}
