package datasets

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// news20ManifestGz is the gzip-compressed manifest of the 9,607 documents of news20Categories in
// 20news-bydate: one line per document, "<path under 20news/> <size in bytes> <sha256 of the
// document with every TAB read as LF>", after '#' comment lines. Reading TABs as LFs makes the
// digest the same for the published archive and for copies whose line ends were turned into TABs
// (a one-document-per-line preprocessing, which 16 documents of the project's shared copy carry);
// both give the same tokens. TestNews20ManifestMatchesRealData checks it against the corpus and,
// with -update-news20-manifest, regenerates it.
//
//go:embed news20_manifest.txt.gz
var news20ManifestGz []byte

// news20Entry is one document's size and digest (see news20Digest).
type news20Entry struct {
	size int64
	sum  [sha256.Size]byte
}

// news20Manifest parses news20ManifestGz once into a map from path under 20news/ (forward slashes).
var news20Manifest = sync.OnceValues(func() (map[string]news20Entry, error) {
	gz, err := gzip.NewReader(bytes.NewReader(news20ManifestGz))
	if err != nil {
		return nil, fmt.Errorf("datasets: the embedded 20news manifest: %w", err)
	}
	out := make(map[string]news20Entry, 9607)
	sc := bufio.NewScanner(gz)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		var e news20Entry
		var sum []byte
		if len(fields) == 3 {
			e.size, err = strconv.ParseInt(fields[1], 10, 64)
			if err == nil {
				sum, err = hex.DecodeString(fields[2])
			}
		}
		if len(fields) != 3 || err != nil || len(sum) != sha256.Size {
			return nil, fmt.Errorf("datasets: the embedded 20news manifest, line %d: %q, expected path, size, sha256", line, text)
		}
		copy(e.sum[:], sum)
		out[fields[0]] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("datasets: the embedded 20news manifest: %w", err)
	}
	return out, nil
})

// news20Digest is the sha256 of a document with every TAB byte read as LF (see news20ManifestGz).
func news20Digest(text []byte) [sha256.Size]byte {
	return sha256.Sum256(bytes.ReplaceAll(text, []byte{'\t'}, []byte{'\n'}))
}

// checkNews20Doc checks the document at path (rel under 20news/, forward slashes) against the
// manifest: it must be listed, have the listed size and digest; the error names path.
func checkNews20Doc(manifest map[string]news20Entry, path, rel string, text []byte) error {
	want, ok := manifest[rel]
	switch {
	case !ok:
		return fmt.Errorf("datasets: 20news: %s is not a document of 20news-bydate's 10 groups GeoMix uses (not in the loader's manifest)", path)
	case int64(len(text)) != want.size:
		return fmt.Errorf("datasets: 20news: %s has %d bytes, expected %d (a truncated or altered document; restore it from %s)",
			path, len(text), want.size, news20Archive.URL)
	case news20Digest(text) != want.sum:
		return fmt.Errorf("datasets: 20news: %s has sha256 %x (TABs read as LFs), expected %x (an altered document; restore it from %s)",
			path, news20Digest(text), want.sum, news20Archive.URL)
	}
	return nil
}
