// Command reproduce runs the GeoMix (KDD'24) experiments headless: data set statistics, single runs,
// the paper's tables, ablations and theorem checks. Results are written atomically and sweeps resume.
//
// Usage:
//
//	go run ./reproduce <command> [flags]
//
// Run `go run ./reproduce help` for the list of commands.
package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
)

// command is one sub-command of reproduce. Each lives in its own cmd_*.go file and registers itself
// from an init function.
type command struct {
	name    string
	summary string
	// run parses args (the words after the command name) and runs; a non-nil error exits 1, or
	// with an *exitError's code (a sweep stopped by a signal: 130 or 143).
	run func(args []string) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go run ./reproduce <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun `go run ./reproduce <command> -h` for a command's flags.")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "reproduce: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err := c.run(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "reproduce %s: %v\n", c.name, err)
		var e *exitError
		if errors.As(err, &e) {
			os.Exit(e.code)
		}
		os.Exit(1)
	}
}
