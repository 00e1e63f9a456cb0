package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/atomicfile"
)

// output is a destination that appears whole or not at all. Writes go to a
// temporary file beside the destination (an atomicfile.File, which main
// removes when the process is stopped by SIGINT or SIGTERM) or to memory
// for standard output; Commit renames the file into place (or copies the
// bytes to Stdout), Abort removes it. The usual pattern:
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
	path string           // destination; "" for standard output
	tmp  *atomicfile.File // nil for standard output
	bw   *bufio.Writer
	mem  bytes.Buffer // the bytes for standard output, or the CSV text for Parquet
	std  io.Writer
	done bool
	// parquet: the CSV text written is turned into Parquet on Commit;
	// strings are the columns written as strings whatever they hold.
	parquet bool
	strings []string
}

// create opens an output for path, "-" meaning standard output. The
// temporary file is created in the destination's directory, so that the
// final rename does not cross file systems; the file made keeps the
// permissions of the file it replaces, or gets 0644.
//
// The output is Parquet when --format parquet was given, or without
// --format when path ends in .parquet.
func (env *Env) create(path string) (*output, error) {
	if path == "-" {
		return &output{std: env.Stdout, parquet: env.parquetOut(path)}, nil
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	return &output{path: path, tmp: tmp, bw: bufio.NewWriterSize(tmp, 1<<16), parquet: env.parquetOut(path)}, nil
}

// parquetOut reports whether the output to path is Parquet.
func (env *Env) parquetOut(path string) bool {
	return env.outFormat == "parquet" || env.outFormat == "" && strings.EqualFold(filepath.Ext(path), ".parquet")
}

// withOutFormat defines --format on fs for a command that writes rows, and
// returns run preceded by the check of its value.
func withOutFormat(fs *flag.FlagSet, run Runner) Runner {
	format := fs.String("format", "", "the `format` of --out: csv or parquet (default: parquet when --out ends in .parquet, else csv)")
	return func(ctx context.Context, env *Env) error {
		switch *format {
		case "", "csv", "parquet":
			env.outFormat = *format
			return run(ctx, env)
		}
		return usagef("--format %q: want csv or parquet", *format)
	}
}

// stringColumns notes that the named columns of the CSV text written to
// w hold strings (labels, categories), for an output turned into Parquet;
// it does nothing for other writers.
func stringColumns(w io.Writer, names ...string) {
	if o, ok := w.(*output); ok {
		o.strings = append(o.strings, names...)
	}
}

func (o *output) Write(p []byte) (int, error) {
	if o.tmp == nil || o.parquet {
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
		if o.parquet {
			bw := bufio.NewWriterSize(o.std, 1<<16)
			if err := o.writeParquet(bw); err != nil {
				return err
			}
			return bw.Flush()
		}
		_, err := o.mem.WriteTo(o.std)
		return err
	}
	var err error
	if o.parquet {
		err = o.writeParquet(o.bw)
	}
	if err == nil {
		err = o.bw.Flush()
	}
	if err != nil {
		o.tmp.Abort()
		return pathError(o.path, err)
	}
	if err := o.tmp.Commit(); err != nil {
		return pathError(o.path, err)
	}
	return nil
}

// writeParquet writes the CSV text written to the output as Parquet, with
// the column types of data.WriteParquet: the CSV's columns read with their
// types inferred, those noted by stringColumns as strings.
func (o *output) writeParquet(w io.Writer) error {
	d, err := data.Read(bytes.NewReader(o.mem.Bytes()), o.path, data.Options{NoTarget: true, Categorical: o.strings, Comma: ','})
	if err != nil {
		return fmt.Errorf("writing Parquet: %w", err)
	}
	return data.WriteParquet(w, d, "")
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
		o.tmp.Abort()
	}
}
