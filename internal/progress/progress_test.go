package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestLines: away from a terminal, a Bar prints a plain line (no carriage return) at the first
// Add, nothing more until LineEvery has passed, then a line with the count and ETA, and a closing line.
func TestLines(t *testing.T) {
	var buf bytes.Buffer
	l, ok := New(&buf, 10, "cora/geomix1 epochs", false).(*lines)
	if !ok {
		t.Fatalf("New on a buffer: got %T, want *lines", l)
	}
	_ = l.Add(1)
	_ = l.Add(1)
	l.last = l.last.Add(-LineEvery)
	_ = l.Add(1)
	_ = l.Finish()
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(got) != 3 || !strings.HasPrefix(got[0], "cora/geomix1 epochs: 1/10 (10%), elapsed ") ||
		!strings.HasPrefix(got[1], "cora/geomix1 epochs: 3/10 (30%), elapsed ") || !strings.Contains(got[1], ", ETA ") ||
		!strings.HasPrefix(got[2], "cora/geomix1 epochs: 3/10 (30%), done in ") || strings.Contains(buf.String(), "\r") {
		t.Errorf("got %q, want lines at 1/10 and 3/10 (30%%) with an ETA, and a closing line", buf.String())
	}
	var quiet bytes.Buffer
	if _ = New(&quiet, 5, "x", false).Finish(); quiet.Len() != 0 {
		t.Errorf("a Bar that counted nothing printed %q", quiet.String())
	}
}

// TestLinesBytes: a download's Bar counts written bytes and prints sizes.
func TestLinesBytes(t *testing.T) {
	var buf bytes.Buffer
	if n, err := New(&buf, 4000, "download cora", true).Write(make([]byte, 1000)); n != 1000 || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if !strings.HasPrefix(buf.String(), "download cora: 1.0 kB/4.0 kB (25%), elapsed ") {
		t.Errorf("got %q, want sizes 1.0 kB/4.0 kB (25%%)", buf.String())
	}
}

// TestPlain: Plain hides the *os.File that New looks for to detect a terminal, and still writes.
func TestPlain(t *testing.T) {
	if _, ok := Plain(os.Stderr).(*os.File); ok {
		t.Fatal("Plain(os.Stderr) is still an *os.File: New would draw an animated bar on a terminal")
	}
	var buf bytes.Buffer
	_ = New(Plain(&buf), 10, "cs/gcn epochs", false).Add(1)
	if !strings.HasPrefix(buf.String(), "cs/gcn epochs: 1/10 (10%)") {
		t.Errorf("a Bar on Plain(buf) wrote %q", buf.String())
	}
}
