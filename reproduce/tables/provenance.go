package tables

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// Provenance says how a report's records were made and where the report was rendered.
type Provenance struct {
	// Command is the command that rendered the report ("" when loaded by a notebook).
	Command string `json:"command,omitempty"`
	// CellCommands and GitRevisions are the distinct commands and revisions of the stored records.
	CellCommands []string `json:"cell_commands"`
	GitRevisions []string `json:"git_revisions"`
	// Date is when the report was rendered (UTC); Machine describes the machine that rendered it.
	Date    time.Time `json:"date"`
	Machine string    `json:"machine"`
	// Quick is true when any record was run with --quick.
	Quick bool `json:"quick"`
}

// newProvenance is the provenance of a report rendered now on this machine, before its records.
func newProvenance() Provenance { return Provenance{Date: time.Now().UTC(), Machine: machineNote()} }

// add counts a record (a table cell, a figure point) made with quick, command and revision.
func (p *Provenance) add(quick bool, command, revision string) {
	p.Quick = p.Quick || quick
	p.CellCommands = appendNew(p.CellCommands, command)
	p.GitRevisions = appendNew(p.GitRevisions, revision)
}

// write writes the provenance as a report's header list: the rendering command, the other commands
// that produced its records (what: "Cells", "Points"), the date, the machine and the revisions.
func (p Provenance) write(b *strings.Builder, what string) {
	if p.Command != "" {
		fmt.Fprintf(b, "- Command: `%s`\n", p.Command)
	}
	for _, c := range p.CellCommands {
		if c != p.Command {
			fmt.Fprintf(b, "- %s produced by: `%s`\n", what, c)
		}
	}
	fmt.Fprintf(b, "- Rendered: %s\n", p.Date.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(b, "- Machine: %s\n", p.Machine)
	if len(p.GitRevisions) > 0 {
		fmt.Fprintf(b, "- Revisions: %s\n", strings.Join(p.GitRevisions, ", "))
	}
}

// machineNote describes the machine rendering the report.
func machineNote() string {
	backend := "GOMLX_BACKEND=" + os.Getenv("GOMLX_BACKEND")
	if os.Getenv("GOMLX_BACKEND") == "" {
		backend = "GOMLX_BACKEND unset (the CLI then uses the pure-Go backend)"
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown host"
	}
	return fmt.Sprintf("%s, %s/%s, %d CPUs, %s, %s", host, runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.Version(), backend)
}
