package geomix

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressLineEvery is how often training progress prints a line when it does not go to a terminal.
const progressLineEvery = 10 * time.Second

// progress counts finished epochs out of a total.
type progress interface {
	Add(n int) error
	Finish() error
}

// newProgress returns an animated progress bar when w is a terminal, and otherwise (log files, CI,
// notebooks) a reporter that prints a plain line at most every progressLineEvery, so redrawn bars
// never fill a log.
func newProgress(w io.Writer, total int, desc string) progress {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	now := time.Now()
	return &lineProgress{w: w, total: total, desc: desc, start: now, last: now}
}

// lineProgress prints "desc: done/total epochs (p%), elapsed, ETA" lines, at most every
// progressLineEvery, and a closing line when it printed any.
type lineProgress struct {
	w           io.Writer
	total, done int
	desc        string
	start, last time.Time
	printed     bool
}

// Add counts n more finished epochs.
func (p *lineProgress) Add(n int) error {
	p.done += n
	if time.Since(p.last) < progressLineEvery {
		return nil
	}
	p.last = time.Now()
	p.printed = true
	elapsed := time.Since(p.start)
	eta := time.Duration(float64(elapsed) * float64(p.total-p.done) / float64(max(p.done, 1)))
	_, err := fmt.Fprintf(p.w, "%s: %d/%d epochs (%.0f%%), elapsed %s, ETA %s\n", p.desc, p.done, p.total,
		100*float64(p.done)/float64(max(p.total, 1)), elapsed.Round(time.Second), eta.Round(time.Second))
	return err
}

// Finish prints the closing line if any progress line was printed.
func (p *lineProgress) Finish() error {
	if !p.printed {
		return nil
	}
	_, err := fmt.Fprintf(p.w, "%s: %d/%d epochs done in %s\n", p.desc, p.done, p.total, time.Since(p.start).Round(time.Second))
	return err
}
