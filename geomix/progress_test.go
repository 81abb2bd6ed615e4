package geomix

import (
	"bytes"
	"strings"
	"testing"
)

// TestLineProgress: away from a terminal, progress prints nothing before progressLineEvery has passed,
// then one plain line (no carriage returns) with the count, and a closing line.
func TestLineProgress(t *testing.T) {
	var buf bytes.Buffer
	p, ok := newProgress(&buf, 10, "cora/geomix1").(*lineProgress)
	if !ok {
		t.Fatalf("newProgress on a buffer: got %T, want *lineProgress", p)
	}
	_ = p.Add(1)
	if buf.Len() != 0 {
		t.Fatalf("printed before %s: %q", progressLineEvery, buf.String())
	}
	p.last = p.last.Add(-progressLineEvery)
	_ = p.Add(2)
	_ = p.Finish()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "cora/geomix1: 3/10 epochs (30%), elapsed ") ||
		!strings.HasPrefix(lines[1], "cora/geomix1: 3/10 epochs done in ") || strings.Contains(buf.String(), "\r") {
		t.Errorf("got %q, want a 3/10 (30%%) line and a closing line", buf.String())
	}
	quiet := newProgress(&bytes.Buffer{}, 5, "x").(*lineProgress)
	_ = quiet.Add(5)
	if _ = quiet.Finish(); quiet.printed {
		t.Error("a job shorter than the line interval printed a line")
	}
}
