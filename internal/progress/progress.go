// Package progress reports the progress of long work: an animated bar on a terminal, plain lines
// elsewhere (log files, CI, notebooks), so a redrawn bar never fills a log.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// LineEvery is how often progress prints a line when it does not go to a terminal.
const LineEvery = 10 * time.Second

// Bar counts finished units (epochs, rows, bytes) out of a total. It is safe for concurrent use.
type Bar interface {
	// Add counts n more finished units.
	Add(n int) error
	// Write counts len(p) bytes, so a Bar can sit in an io.MultiWriter of a download.
	Write(p []byte) (int, error)
	// Finish ends the report.
	Finish() error
}

// New returns a Bar of total units described by desc that writes to w: an animated bar when w is
// a terminal, else plain lines: one at the first Add, then at most one every LineEvery, and a
// closing line.
// With bytes, counts print as sizes (a download); total <= 0 means unknown.
func New(w io.Writer, total int64, desc string, bytes bool) Bar {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return animated{progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionShowBytes(bytes), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())}
	}
	return &lines{w: w, total: total, desc: desc, bytes: bytes, start: time.Now()}
}

// Plain returns w without its terminal, if it has one: a Bar on it prints plain lines. Work that
// reports several Bars at once to one terminal (cells trained side by side) uses it, since
// animated bars there would redraw over each other.
func Plain(w io.Writer) io.Writer { return plain{w} }

// plain hides the *os.File (and so the terminal) behind an io.Writer.
type plain struct{ io.Writer }

// animated adapts progressbar's bar to Bar.
type animated struct{ *progressbar.ProgressBar }

// Add counts n more finished units.
func (a animated) Add(n int) error { return a.ProgressBar.Add(n) }

// lines prints "desc: done/total unit (p%), elapsed, ETA" lines.
type lines struct {
	mu          sync.Mutex
	w           io.Writer
	total, done int64
	desc        string
	bytes       bool
	start, last time.Time
	printed     bool
}

// Add counts n more finished units and prints a line if it is the first Add or LineEvery has
// passed since the last line.
func (l *lines) Add(n int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done += int64(n)
	if l.printed && time.Since(l.last) < LineEvery {
		return nil
	}
	l.last, l.printed = time.Now(), true
	elapsed := time.Since(l.start)
	line := fmt.Sprintf("%s: %s, elapsed %s", l.desc, l.count(), elapsed.Round(time.Second))
	if l.total > 0 {
		eta := time.Duration(float64(elapsed) * float64(l.total-l.done) / float64(max(l.done, 1)))
		line += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
	}
	_, err := fmt.Fprintln(l.w, line)
	return err
}

// Write counts len(p) bytes.
func (l *lines) Write(p []byte) (int, error) { return len(p), l.Add(len(p)) }

// Finish prints the closing line (nothing if nothing was counted).
func (l *lines) Finish() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.printed {
		return nil
	}
	_, err := fmt.Fprintf(l.w, "%s: %s, done in %s\n", l.desc, l.count(), time.Since(l.start).Round(time.Second))
	return err
}

// count formats done of total: "30/100 (30%)", or sizes with bytes.
func (l *lines) count() string {
	format := func(n int64) string { return fmt.Sprint(n) }
	if l.bytes {
		format = func(n int64) string { return humanize.Bytes(uint64(n)) }
	}
	if l.total <= 0 {
		return format(l.done)
	}
	return fmt.Sprintf("%s/%s (%.0f%%)", format(l.done), format(l.total), 100*float64(l.done)/float64(l.total))
}
