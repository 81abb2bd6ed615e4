// Package notebooks holds the tests of the GoNB notebooks beside it: their committed outputs
// (executed, no errors, within a size budget), the printed numbers of a headless quick run
// (scripts/notebooks.sh), the exported HTML's charts and formulas in Chromium, a live run of
// 01-theory in the classic Notebook, and a relative data root. The notebooks call the library;
// this package has no code of its own.
package notebooks
