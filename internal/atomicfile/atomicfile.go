// Package atomicfile writes files that appear whole or not at all: the
// bytes go to a hidden temporary file beside the destination, which
// Commit syncs and renames over it and Abort removes. The usual pattern:
//
//	f, err := atomicfile.Create(path)
//	if err != nil {
//		return err
//	}
//	defer f.Abort()
//	... write to f ...
//	return f.Commit()
//
// The temporary files open are registered, so that a program stopped by
// a signal removes them before it exits (RemoveOnSignal): an interrupted
// write leaves neither a partial destination nor a temporary file. A
// directory written whole (a report of several files) goes the same way
// through MkdirTemp and Dir.Commit.
package atomicfile

import (
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// File is a file being written to a temporary file, to appear at its
// destination on Commit.
type File struct {
	path string
	tmp  *os.File
	perm fs.FileMode
	done bool
}

// Create opens a temporary file for path: in path's directory, so that
// the final rename does not cross file systems, named "." + the base name
// + ".tmp" and a random suffix (hidden, and not a *.json that a model
// repository would serve). The file that Commit makes keeps the
// permissions of the file it replaces, or gets 0644.
func Create(path string) (*File, error) {
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	open.mu.Lock()
	defer open.mu.Unlock()
	open.catch()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		open.release()
		return nil, err
	}
	open.names[tmp.Name()] = true
	return &File{path: path, tmp: tmp, perm: perm}, nil
}

// Name returns the name of the temporary file.
func (f *File) Name() string { return f.tmp.Name() }

func (f *File) Write(p []byte) (int, error) { return f.tmp.Write(p) }

// Sync commits what was written so far to disk, so that Commit, which
// syncs it again, has little left to write: for a program that has work
// to do between writing the file and committing it.
func (f *File) Sync() error { return f.tmp.Sync() }

// Commit makes the file appear at its destination: it sets its
// permissions, syncs it to disk, renames it over the destination and
// syncs the directory (best effort: not every system can). On an error
// the temporary file is removed and the destination is untouched. It
// panics when f was committed or aborted already.
func (f *File) Commit() error {
	if f.done {
		panic("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	err := f.tmp.Chmod(f.perm)
	if err == nil {
		err = f.tmp.Sync()
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	open.mu.Lock()
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
	}
	open.forget(f.tmp.Name())
	open.mu.Unlock()
	if err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file unless f was committed. Abort after
// Commit or Abort does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	open.mu.Lock()
	defer open.mu.Unlock()
	os.Remove(f.tmp.Name())
	open.forget(f.tmp.Name())
}

// WriteFile writes b to path atomically, as os.WriteFile writes it
// plainly: Create, Write and Commit, the temporary file removed on any
// error, so that path holds either its old bytes or b.
func WriteFile(path string, b []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(b); err != nil {
		return err
	}
	return f.Commit()
}

// Dir is a directory being written, to appear at its destination on
// Commit.
type Dir struct {
	path, tmp string
	done      bool
}

// MkdirTemp creates a temporary directory for path, beside it and named
// as Create names its files, registered as they are: a program stopped
// by a signal removes it and what it holds (RemoveOnSignal).
func MkdirTemp(path string) (*Dir, error) {
	path = filepath.Clean(path)
	open.mu.Lock()
	defer open.mu.Unlock()
	open.catch()
	tmp, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		open.release()
		return nil, err
	}
	open.names[tmp] = true
	return &Dir{path: path, tmp: tmp}, nil
}

// Name returns the name of the temporary directory.
func (d *Dir) Name() string { return d.tmp }

// Commit makes the directory appear at its destination: renamed into
// place, a directory already there moved aside first and removed after.
// A signal waits for Commit to end, so that it finds either the old
// directory or the new one in place. On an error the temporary directory
// is removed, and the old one left in place. It panics when the
// directory was already committed or aborted.
func (d *Dir) Commit() error {
	if d.done {
		panic("atomicfile: Dir committed after Commit or Abort")
	}
	d.done = true
	open.mu.Lock()
	defer open.mu.Unlock()
	defer open.forget(d.tmp)
	old := ""
	if _, err := os.Lstat(d.path); err == nil {
		old = d.tmp + ".old"
		if err := os.Rename(d.path, old); err != nil {
			os.RemoveAll(d.tmp)
			return err
		}
	}
	if err := os.Rename(d.tmp, d.path); err != nil {
		if old != "" {
			os.Rename(old, d.path)
		}
		os.RemoveAll(d.tmp)
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// Abort removes the temporary directory and what it holds unless d was
// committed. Abort after Commit or Abort does nothing.
func (d *Dir) Abort() {
	if d.done {
		return
	}
	d.done = true
	open.mu.Lock()
	defer open.mu.Unlock()
	os.RemoveAll(d.tmp)
	open.forget(d.tmp)
}

// registry is the set of temporary files open, for the signal handler.
type registry struct {
	// mu is held from the creation of a file to its registration, from
	// its rename or removal to its forgetting, and by the signal handler
	// until the process exits.
	mu    sync.Mutex
	names map[string]bool
	sig   chan os.Signal // nil until RemoveOnSignal
	sigs  []os.Signal
}

// open are the temporary files of Create not yet committed or aborted.
var open = &registry{names: map[string]bool{}}

// catch starts catching the signals, if the handler is set, before the
// first file open is created. r.mu is held.
func (r *registry) catch() {
	if r.sig != nil && len(r.names) == 0 {
		signal.Notify(r.sig, r.sigs...)
	}
}

// release stops catching the signals once no file is open. r.mu is held.
func (r *registry) release() {
	if r.sig != nil && len(r.names) == 0 {
		signal.Stop(r.sig)
	}
}

// forget unregisters the file name, renamed or removed. r.mu is held.
func (r *registry) forget(name string) {
	delete(r.names, name)
	r.release()
}

// RemoveOnSignal makes the process, when it receives one of sigs while a
// temporary file of Create is open, remove every such file and exit with
// status 128 + the signal's number, as a shell reports a process killed
// by the signal (130 for SIGINT, 143 for SIGTERM). While no temporary
// file is open the signals are left alone: to their default action, or to
// the program's own handling of them (gendisc serve's graceful stop). A
// command calls it once from main; a library does not, and its temporary
// files are then removed on errors only. It panics when called twice.
func RemoveOnSignal(sigs ...os.Signal) {
	r := open
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sig != nil {
		panic("atomicfile: RemoveOnSignal called twice")
	}
	r.sig, r.sigs = make(chan os.Signal, 1), sigs
	if len(r.names) > 0 {
		signal.Notify(r.sig, sigs...)
	}
	go func() {
		s := <-r.sig
		r.mu.Lock() // no file is created or renamed from here on
		for name := range r.names {
			os.RemoveAll(name) // a file of Create or a directory of MkdirTemp
		}
		code := 128 + int(syscall.SIGTERM)
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
