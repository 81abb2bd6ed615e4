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
	"strings"

	"github.com/geomix-go/geomix/datasets"
)

// command is one sub-command of reproduce. Each lives in its own cmd_*.go file and registers itself
// from an init function.
type command struct {
	name    string
	summary string
	// example is one typical invocation, shown by `reproduce <name> -h`.
	example string
	// run parses args (the words after the command name) and runs; a non-nil error exits 1, or
	// with an *exitError's code (a sweep stopped by a signal: 130 or 143).
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

// parseArgs parses args into fs and refuses positional arguments.
func parseArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return nil
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
	args, err := absoluteDataRoots(os.Args[2:])
	if err == nil {
		err = c.run(args)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) { // -h: the usage is printed
			return
		}
		fmt.Fprintf(os.Stderr, "reproduce %s: %v\n", c.name, err)
		var e *exitError
		if errors.As(err, &e) {
			os.Exit(e.code)
		}
		os.Exit(1)
	}
}

// absoluteDataRoots resolves a relative data root once, at startup, against the directory the
// command was started in (datasets.ResolveRoot): $GEOMIX_DATA is set to its absolute form, and
// the returned args have the value of every --data flag absolute; a --data directory that does not
// exist is an error naming it, for every command.
func absoluteDataRoots(args []string) ([]string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if env := os.Getenv(datasets.EnvData); env != "" {
		abs, err := datasets.ResolveRoot(env, cwd)
		if err != nil {
			return nil, err
		}
		if err := os.Setenv(datasets.EnvData, abs); err != nil {
			return nil, err
		}
	}
	out := make([]string, len(args))
	copy(out, args)
	for i := 0; i < len(out) && out[i] != "--"; i++ {
		flag, value, inline := strings.Cut(out[i], "=")
		if flag != "-data" && flag != "--data" {
			continue
		}
		if !inline {
			if i+1 == len(out) {
				break
			}
			i++
			value = out[i]
		}
		if value == "" {
			continue // as if not given
		}
		abs, err := datasets.ResolveRoot(value, cwd)
		if err == nil {
			err = datasets.CheckRoot(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("%w (the data root given by --data)", err)
		}
		if inline {
			out[i] = flag + "=" + abs
		} else {
			out[i] = abs
		}
	}
	return out, nil
}

// dataRoot returns the data root a command uses, given its --data value: the flag's value, else
// $GEOMIX_DATA, else the user cache (datasets.DefaultRoot). A root given by the flag or the
// variable (explicit) must be an existing directory; otherwise the error names it.
func dataRoot(flagValue string) (root string, explicit bool, err error) {
	root, explicit = flagValue, true
	if root == "" {
		root, explicit = datasets.DefaultRoot(), os.Getenv(datasets.EnvData) != ""
	}
	if explicit {
		if err = datasets.CheckRoot(root); err != nil {
			source := "--data"
			if flagValue == "" {
				source = "$" + datasets.EnvData
			}
			err = fmt.Errorf("%w (the data root given by %s)", err, source)
		}
	}
	return root, explicit, err
}
