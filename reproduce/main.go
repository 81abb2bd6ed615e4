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
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one sub-command of reproduce. Each lives in its own cmd_*.go file and registers itself
// from an init function.
type command struct {
	name    string
	summary string
	// example is one typical invocation, shown by `reproduce <name> -h`.
	example string
	// run parses args (the words after the command name) and runs; a non-nil error exits 1.
	run func(args []string) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// newFlagSet returns the flag set of the registered command name, writing to out: on -h or -help
// it prints the command's summary, example and flags, and Parse returns flag.ErrHelp, on which
// main exits 0.
func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		c := commands[name]
		fmt.Fprintf(out, "usage: go run ./reproduce %s [flags]\n\n%s.\n\nexample:\n  %s\n\nflags:\n", name, c.summary, c.example)
		fs.PrintDefaults()
	}
	return fs
}

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
		if errors.Is(err, flag.ErrHelp) { // -h: the usage is printed
			return
		}
		fmt.Fprintf(os.Stderr, "reproduce %s: %v\n", c.name, err)
		os.Exit(1)
	}
}
