package tables

import "testing"

// TestPortableCommand: absolute paths in a recorded command become DIR in a report; relative ones
// and other words stay.
func TestPortableCommand(t *testing.T) {
	for in, want := range map[string]string{
		"go run ./reproduce table2 --out /tmp/cells --jobs 2":    "go run ./reproduce table2 --out DIR --jobs 2",
		"reproduce figure-hyper --out=/work/runs --data ../data": "reproduce figure-hyper --out=DIR --data ../data",
		"go run ./reproduce table5 --out results":                "go run ./reproduce table5 --out results",
	} {
		if got := portableCommand(in); got != want {
			t.Errorf("portableCommand(%q) = %q, want %q", in, got, want)
		}
	}
}
