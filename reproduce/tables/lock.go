package tables

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A sweep trains a cell, and reads or writes its checkpoint, only while it holds the cell's lock: an
// advisory flock(2) on the hidden file .<record name>.lock beside the record. Two sweeps over one
// folder (on one machine, or on the nodes of a cluster sharing it over NFSv4 or a parallel file
// system whose flock is cluster-wide) never train the same cell at once. The kernel releases the
// lock when its process ends, however it ends, so a killed sweep leaves no stale lock; the file
// itself stays (removing it would race with a sweep waiting on it) and names its last holder.

// lockPollInterval is how often a sweep waiting for another's cell tries its lock again.
var lockPollInterval = time.Second

// cellLock is a held lock of one cell.
type cellLock struct{ f *os.File }

// lockFile is the lock file of the cell whose record is at record.
func lockFile(record string) string {
	return filepath.Join(filepath.Dir(record), "."+strings.TrimSuffix(filepath.Base(record), ".json")+".lock")
}

// tryLock takes the lock of the cell whose record is at record without waiting. It returns nil and
// the holder (host, pid and since when) when another sweep holds it.
func tryLock(record string) (*cellLock, string, error) {
	path := lockFile(record)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("opening lock file %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		holder, _ := io.ReadAll(f)
		_ = f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, strings.TrimSpace(string(holder)), nil
		}
		return nil, "", fmt.Errorf("locking %s: %w", path, err)
	}
	host, _ := os.Hostname()
	if err := f.Truncate(0); err == nil {
		_, _ = fmt.Fprintf(f, "host %s pid %d since %s\n", host, os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	}
	return &cellLock{f: f}, "", nil
}

// waitLock takes the lock of the cell whose record is at record, trying every lockPollInterval
// until it is free; it returns nil without the lock once stop is closed.
func waitLock(record string, stop <-chan struct{}) (*cellLock, error) {
	for {
		l, _, err := tryLock(record)
		if l != nil || err != nil {
			return l, err
		}
		select {
		case <-stop:
			return nil, nil
		case <-time.After(lockPollInterval):
		}
	}
}

// heldBy returns the holder (host, pid and since when) of the lock of the cell whose record is at
// record when another process holds it, else "" (also when that cannot be told). It creates
// nothing: a dry run leaves the folder as it was.
func heldBy(record string) string {
	f, err := os.Open(lockFile(record))
	if err != nil {
		return ""
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
		return ""
	}
	holder, _ := io.ReadAll(f)
	if h := strings.TrimSpace(string(holder)); h != "" {
		return h
	}
	return "another process"
}

// unlock releases the lock (closing the file releases the flock).
func (l *cellLock) unlock() { _ = l.f.Close() }

// removeOrphanTemps removes the temporary files that atomicfile.Write leaves beside path when its
// process is killed mid-write (.<name>.tmp*), and returns their names. Call it only while holding
// the lock of path's cell: then no live writer owns them.
func removeOrphanTemps(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+".tmp*"))
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, m := range matches {
		if err := os.Remove(m); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("removing orphaned temporary file %s: %w", m, err)
		}
		removed = append(removed, m)
	}
	return removed, nil
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// checkWritable returns an error unless a file can be created in dir (created if missing): a
// read-only --out is found before any training, not after a cell trained.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output folder %s cannot be created: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".writable-*")
	if err != nil {
		return fmt.Errorf("output folder %s is not writable: %w", dir, err)
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}
