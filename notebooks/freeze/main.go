// Command freeze writes an executed notebook in the form committed under notebooks/: every chart
// output (viz's interactive ECharts HTML, about 1 MB each) becomes an image of the chart drawn by
// headless Chromium (PNG; JPEG for a dense scatter whose PNG is over 100 KB), which GitHub and any notebook viewer show without JavaScript; stderr streams
// (progress bars) and per-cell execution timestamps are dropped. Everything else is kept as executed.
//
//	go run ./notebooks/freeze build/notebooks/00-quickstart.ipynb notebooks/00-quickstart.ipynb
//
// scripts/notebooks.sh --commit runs it on each notebook after a full run. It needs chromium on PATH
// (Debian: apt-get install -y chromium).
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: freeze <executed.ipynb> <committed.ipynb>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "freeze:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("no chromium on PATH to draw the charts (Debian: apt-get install -y chromium): %w", err)
	}
	nb, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "geomix-freeze")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	frozen, charts, err := Freeze(nb, chromium, tmp)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := writeFile(out, frozen); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "freeze: %s: %d chart(s) as images, %d bytes\n", out, charts, len(frozen))
	return nil
}
