package datasets

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// news20Archive is the 20news-bydate archive scikit-learn's fetch_20newsgroups downloads (URL and
// sha256 from sklearn 1.2.1's ARCHIVE metadata), stored under the data root while it is unpacked.
var news20Archive = fileSpec{
	Path:   "20news/20news-bydate.tar.gz",
	URL:    "https://ndownloader.figshare.com/files/5975967",
	SHA256: "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610",
}

// news20Tree returns the folder <root>/20news that holds 20news-bydate-train and
// 20news-bydate-test. When they are absent and opts allow downloads, it downloads news20Archive
// (verified sha256), unpacks it into a temporary folder beside them, moves the test then the train
// folder into place (the train folder is what marks the tree complete) and removes the archive.
func news20Tree(opts Options) (string, error) {
	dir := filepath.Join(opts.root(), "20news")
	train := filepath.Join(dir, news20Subsets[0])
	test := filepath.Join(dir, news20Subsets[1])
	if pathIsDir(train) {
		if !pathIsDir(test) {
			return "", fmt.Errorf("datasets: 20news: %s exists but %s does not, expected both (20news-bydate)", train, test)
		}
		return dir, nil
	}
	if opts.Offline {
		return "", fmt.Errorf("datasets: 20news: %w %s (offline; download %s, sklearn's 20news-bydate.tar.gz, "+
			"and unpack it in %s)", ErrMissing, train, news20Archive.URL, dir)
	}
	if pathIsDir(test) {
		return "", fmt.Errorf("datasets: 20news: %s exists without %s (an interrupted unpack?); remove it to download again", test, train)
	}
	archive, err := opts.fetch(news20Archive)
	if err != nil {
		return "", err
	}
	if err := unpackNews20(archive, dir); err != nil {
		return "", err
	}
	if err := os.Remove(archive); err != nil {
		return "", fmt.Errorf("datasets: 20news: removing the unpacked archive: %w", err)
	}
	return dir, nil
}

// pathIsDir reports whether path is an existing directory.
func pathIsDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// unpackNews20 extracts the 20news-bydate-train and 20news-bydate-test folders of the tar.gz at
// archive into dir, atomically per folder: everything goes to a temporary folder in dir first.
func unpackNews20(archive, dir string) (err error) {
	tmp, err := os.MkdirTemp(dir, ".unpack-*")
	if err != nil {
		return fmt.Errorf("datasets: 20news: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	file, err := os.Open(archive)
	if err != nil {
		return fmt.Errorf("datasets: 20news: %w", err)
	}
	defer func() { _ = file.Close() }()
	gz, err := gzip.NewReader(file)
	if err != nil {
		return fmt.Errorf("datasets: 20news: %s: %w (expected a gzip-compressed tar)", archive, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("datasets: 20news: %s: %w (a truncated or damaged archive)", archive, err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		top, _, _ := strings.Cut(name, "/")
		if (top != news20Subsets[0] && top != news20Subsets[1]) || !fs.ValidPath(name) || h.Typeflag != tar.TypeReg {
			continue // only regular files of the two folders; no links, no paths outside.
		}
		if err := extractTarFile(tr, filepath.Join(tmp, filepath.FromSlash(name))); err != nil {
			return fmt.Errorf("datasets: 20news: %s: entry %s: %w (a truncated or damaged archive)", archive, h.Name, err)
		}
	}
	for _, sub := range []string{news20Subsets[1], news20Subsets[0]} {
		if !pathIsDir(filepath.Join(tmp, sub)) {
			return fmt.Errorf("datasets: 20news: %s has no %s folder, expected the 20news-bydate layout", archive, sub)
		}
	}
	for _, sub := range []string{news20Subsets[1], news20Subsets[0]} {
		if err := os.Rename(filepath.Join(tmp, sub), filepath.Join(dir, sub)); err != nil {
			return fmt.Errorf("datasets: 20news: %w", err)
		}
	}
	return nil
}

// extractTarFile copies the current tar entry to path, creating its folder.
func extractTarFile(r io.Reader, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
