package tables

import (
	"embed"
	"strings"
)

// notesFS holds notes/<id>.md: the notes printed under the report of each table and figure.
//
//go:embed notes/*.md
var notesFS embed.FS

// Notes returns the Markdown notes printed under the report of id (a table or figure id, e.g.
// "table2", FigureHyper): where our data, protocol or implementation differ from the paper's, and
// why flagged cells differ. It is "" for an id without notes. The notes are the files
// reproduce/tables/notes/<id>.md, built into the binary; a bullet about flagged cells starts with
// their names in bold, "**Data set, Data set: Method, Method**".
func Notes(id string) string {
	data, err := notesFS.ReadFile("notes/" + id + ".md")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
