package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/reproduce/tables"
)

// TestHelpOfEveryCommand: `reproduce <command> -h` returns flag.ErrHelp (main exits 0 on it) and
// prints the command's usage line, its summary, an example invoking it, and its flags.
func TestHelpOfEveryCommand(t *testing.T) {
	for name, c := range commands {
		if c.summary == "" || !strings.HasPrefix(c.example, "go run ./reproduce "+name+" ") && c.example != "go run ./reproduce "+name {
			t.Errorf("%s: summary %q, example %q: want both, the example invoking %s", name, c.summary, c.example, name)
		}
		out := captureStderr(t, func() {
			if err := c.run([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%s -h: %v, want flag.ErrHelp", name, err)
			}
		})
		for _, want := range []string{"usage: go run ./reproduce " + name + " [flags]", c.summary, "example:\n  " + c.example, "flags:\n  -"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s -h prints\n%s\nwant it to hold %q", name, out, want)
			}
		}
	}
}

// captureStderr runs fn with os.Stderr sent to a pipe and returns what fn wrote there.
func captureStderr(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	fn()
	os.Stderr = saved
	w.Close()
	return <-done
}

// TestListStatusesAgreeWithNotes: an entry with nothing to run is "not runnable", one whose note
// names a row not implemented or data not obtainable is "partial" (or not runnable), and an
// "implemented" entry's note names nothing missing.
func TestListStatusesAgreeWithNotes(t *testing.T) {
	for _, e := range tables.Catalog() {
		status, note := listStatus(e)
		missing := strings.Contains(note, "not implemented") || strings.Contains(note, "not obtainable")
		switch {
		case e.Command == "" && status != tables.NotRunnable:
			t.Errorf("%s: no command, status %q, want %q (note %q)", e.ID, status, tables.NotRunnable, note)
		case e.Command != "" && status == tables.NotRunnable:
			t.Errorf("%s: runs %q, status %q", e.ID, e.Command, status)
		case e.Kind != "tool" && status == tables.Implemented && missing:
			t.Errorf("%s: status %q, note %q names something missing", e.ID, status, note)
		case status == tables.Partial && !missing:
			t.Errorf("%s: status %q, note %q names nothing missing", e.ID, status, note)
		}
	}
}
