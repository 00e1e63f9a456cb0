package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// output is a destination that appears whole or not at all. Writes go to a
// temporary file beside the destination (or to memory for standard output);
// Commit renames the file into place (or copies the bytes to Stdout), Abort
// removes it. The usual pattern:
//
//	out, err := env.create(path)
//	if err != nil {
//		return err
//	}
//	defer out.Abort()
//	... write to out ...
//	return out.Commit()
//
// Abort after Commit does nothing.
type output struct {
	path string // destination; "" for standard output
	tmp  *os.File
	bw   *bufio.Writer
	mem  bytes.Buffer // the bytes for standard output
	std  io.Writer
	done bool
}

// create opens an output for path, "-" meaning standard output. The
// temporary file is created in the destination's directory, so that the
// final rename does not cross file systems.
func (env *Env) create(path string) (*output, error) {
	if path == "-" {
		return &output{std: env.Stdout}, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, pathError(path, err)
	}
	return &output{path: path, tmp: tmp, bw: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

func (o *output) Write(p []byte) (int, error) {
	if o.tmp == nil {
		return o.mem.Write(p)
	}
	return o.bw.Write(p)
}

// Commit makes the output appear at its destination. It panics when the
// output was already committed or aborted.
func (o *output) Commit() error {
	if o.done {
		panic("cli: output committed after Commit or Abort")
	}
	o.done = true
	if o.tmp == nil {
		_, err := o.mem.WriteTo(o.std)
		return err
	}
	err := o.bw.Flush()
	if err == nil {
		err = o.tmp.Chmod(0o644)
	}
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return pathError(o.path, err)
	}
	return nil
}

// pathError names the destination path in an error about its temporary
// file: "out.csv: permission denied".
func pathError(path string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// Abort discards the output unless it was committed.
func (o *output) Abort() {
	if o.done {
		return
	}
	o.done = true
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
	}
}
