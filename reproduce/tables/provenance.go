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

// writeFigureFooter writes what ends every figure report: the figure's notes (Notes(id)) and a
// folded block with the rendering command and the commands and revisions of the points (each
// point's record holds its own command, revision, training time and finish time).
func (p Provenance) writeFigureFooter(b *strings.Builder, id string) {
	writeNotes(b, Notes(id))
	b.WriteString("\n<details>\n<summary>Provenance: the commands and revisions of the points</summary>\n\n")
	if p.Command != "" {
		fmt.Fprintf(b, "Rendered by `%s` from the records in `%s/`; each record holds its point's command, revision, training time and finish time.\n\n", p.Command, id)
	}
	for _, c := range p.CellCommands {
		fmt.Fprintf(b, "- Points produced by: `%s`\n", portableCommand(c))
	}
	if len(p.GitRevisions) > 0 {
		fmt.Fprintf(b, "- Revisions: %s\n", strings.Join(p.GitRevisions, ", "))
	}
	b.WriteString("\n</details>\n")
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

// portableCommand is command as a report shows it: every absolute path (a word, or a flag's value
// after "=") becomes DIR, so that no machine's folders appear in a committed report.
func portableCommand(command string) string {
	words := strings.Fields(command)
	for i, w := range words {
		if strings.HasPrefix(w, "/") {
			words[i] = "DIR"
		} else if k, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(v, "/") {
			words[i] = k + "=DIR"
		}
	}
	return strings.Join(words, " ")
}
