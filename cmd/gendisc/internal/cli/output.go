package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/atomicfile"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
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
	// format is that of a file of rows (createRows): CSV text is written
	// to the output and, for another encoding, turned into it on Commit;
	// strings are the columns written as strings whatever they hold. The
	// zero format is the bytes as written.
	format  rowFormat
	strings []string
}

// create opens an output for path, "-" meaning standard output, that
// gets the bytes written as they are. The temporary file is created in
// the destination's directory, so that the final rename does not cross
// file systems; the file made keeps the permissions of the file it
// replaces, or gets 0644.
func (env *Env) create(path string) (*output, error) {
	if path == "-" {
		return &output{std: env.Stdout}, nil
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	return &output{path: path, tmp: tmp, bw: bufio.NewWriterSize(tmp, 1<<16)}, nil
}

// createRows opens an output for a file of rows, to which a command
// writes CSV text: the file gets it in the format of path's extension or
// --format (outputFormat), compressed as the extension says.
func (env *Env) createRows(path string) (*output, error) {
	f, err := outputFormat(path, env.outFormat)
	if err != nil {
		return nil, err
	}
	o, err := env.create(path)
	if err != nil {
		return nil, err
	}
	o.format = f
	return o, nil
}

// rowFormat is the format of a file of rows: its encoding ("csv", "tsv",
// "jsonl" or "parquet"; "" for the bytes as written) and its compression
// ("", "gzip" or "zstd").
type rowFormat struct{ encoding, compression string }

// rowEncodings are the encodings of files of rows by extension, and
// rowCompressions the compressions that may follow it.
var (
	rowEncodings    = map[string]string{".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
	rowCompressions = map[string]string{".gz": "gzip", ".zst": "zstd"}
)

// rowEncodingNames are the values of --format.
var rowEncodingNames = []string{"csv", "tsv", "jsonl", "parquet"}

// formatError is the misuse of a --format that is not one of them.
func formatError(format string) error {
	return usagef("--format %q: want %s", format, strings.Join(rowEncodingNames, ", "))
}

// knownExtensions is the list of outputFormat's extensions for messages.
const knownExtensions = ".csv, .tsv, .jsonl (or .json, .ndjson) and .parquet, the text ones optionally compressed as .gz or .zst"

// outputFormat returns the format of a file of rows written to path:
// format (--format) when given, else the one its extension names (CSV
// for standard output and for a name without an extension), compressed
// by gzip or zstd when the name ends in .gz or .zst. Any other extension,
// or a compressed Parquet file (compressed inside already), is a misuse
// that names the extensions known.
func outputFormat(path, format string) (rowFormat, error) {
	var f rowFormat
	name := path
	if c, ok := rowCompressions[strings.ToLower(filepath.Ext(name))]; ok && path != "-" {
		f.compression, name = c, strings.TrimSuffix(name, filepath.Ext(name))
	}
	switch ext := strings.ToLower(filepath.Ext(name)); {
	case format != "" && !slices.Contains(rowEncodingNames, format):
		return f, formatError(format)
	case format != "":
		f.encoding = format
	case path == "-" || ext == "":
		f.encoding = "csv"
	case rowEncodings[ext] != "":
		f.encoding = rowEncodings[ext]
	default:
		return f, usagef("%s: unknown extension %q: the known ones are %s", path, ext, knownExtensions)
	}
	if f.encoding == "parquet" && f.compression != "" {
		return f, usagef("%s: a Parquet file is compressed inside (zstd): drop %s", path, filepath.Ext(path))
	}
	return f, nil
}

// textFormat returns the format of a plain-text file written to path: its
// bytes, compressed by gzip or zstd when the name ends in .gz or .zst. The
// name ends in .txt, or has no extension; another is a misuse.
func textFormat(path string) (rowFormat, error) {
	var f rowFormat
	name := path
	if c, ok := rowCompressions[strings.ToLower(filepath.Ext(name))]; ok && path != "-" {
		f.compression, name = c, strings.TrimSuffix(name, filepath.Ext(name))
	}
	if ext := strings.ToLower(filepath.Ext(name)); path != "-" && ext != "" && ext != ".txt" {
		return f, usagef("%s: unknown extension %q for plain text: the known ones are .txt, optionally compressed as .gz or .zst", path, ext)
	}
	return f, nil
}

// withOutFormat defines --format on fs for a command that writes rows,
// and returns run preceded by the checks of its value and of the formats
// of the files of rows named by the flags outs (outputFormat), so that a
// misuse is told before any work.
func withOutFormat(fs *flag.FlagSet, run Runner, outs ...string) Runner {
	format := fs.String("format", "", "the `format` of the rows written: csv, tsv, jsonl or parquet (default: by the extension of the file, else csv)")
	return func(ctx context.Context, env *Env) error {
		if *format != "" && !slices.Contains(rowEncodingNames, *format) {
			return formatError(*format)
		}
		for _, name := range outs {
			if fl := fs.Lookup(name); fl != nil && fl.Value.String() != "" {
				if _, err := outputFormat(fl.Value.String(), *format); err != nil {
					return err
				}
			}
		}
		env.outFormat = *format
		return run(ctx, env)
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

// direct reports whether the bytes written go to the file as they are:
// uncompressed CSV text or bytes, to a file.
func (o *output) direct() bool {
	return o.tmp != nil && o.format.compression == "" && (o.format.encoding == "" || o.format.encoding == "csv")
}

func (o *output) Write(p []byte) (int, error) {
	if o.direct() {
		return o.bw.Write(p)
	}
	return o.mem.Write(p)
}

// Sync writes what a file output written as it is (a model file, CSV
// text) holds to its file and to disk, leaving Commit the rename: for a
// command with work to do between writing and committing.
func (o *output) Sync() error {
	if !o.direct() {
		return nil
	}
	if err := o.bw.Flush(); err != nil {
		return pathError(o.path, err)
	}
	if err := o.tmp.Sync(); err != nil {
		return pathError(o.path, err)
	}
	return nil
}

// Commit makes the output appear at its destination. It panics when the
// output was already committed or aborted.
func (o *output) Commit() error {
	if o.done {
		panic("cli: output committed after Commit or Abort")
	}
	o.done = true
	if o.tmp == nil {
		bw := bufio.NewWriterSize(o.std, 1<<16)
		if err := o.encode(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	err := o.encode(o.bw)
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

// encode writes to w what the output holds in memory, in its format: the
// CSV text in another encoding, compressed (CSV text written to a file
// uncompressed went to w already).
func (o *output) encode(w io.Writer) error {
	if o.direct() {
		return nil
	}
	var z io.WriteCloser
	switch o.format.compression {
	case "gzip":
		z = gzip.NewWriter(w)
	case "zstd":
		var err error
		if z, err = zstd.NewWriter(w); err != nil {
			return err
		}
	}
	if z != nil {
		w = z
	}
	var err error
	switch o.format.encoding {
	case "", "csv":
		_, err = o.mem.WriteTo(w)
	case "tsv":
		err = o.writeTSV(w)
	default:
		err = o.writeEncoded(w)
	}
	if z != nil {
		if cerr := z.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// writeTSV writes the CSV text written to the output as tab-separated
// values (a field holding a tab, a quote or a line break quoted as CSV
// quotes it, which gendisc's reader reads back).
func (o *output) writeTSV(w io.Writer) error {
	r := csv.NewReader(&o.mem)
	r.FieldsPerRecord = -1
	tw := csv.NewWriter(w)
	tw.Comma = '\t'
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := tw.Write(rec); err != nil {
			return err
		}
	}
	tw.Flush()
	return tw.Error()
}

// writeEncoded writes the CSV text written to the output as Parquet or
// JSON lines, with the column types of dataio.WriteParquet: the CSV's
// columns read with their types inferred, those noted by stringColumns as
// strings.
func (o *output) writeEncoded(w io.Writer) error {
	d, err := dataio.Read(bytes.NewReader(o.mem.Bytes()), o.path, dataio.Options{NoTarget: true, Categorical: o.strings, Comma: ','})
	if err != nil {
		return fmt.Errorf("writing %s: %w", o.format.encoding, err)
	}
	if o.format.encoding == "parquet" {
		return dataio.WriteParquet(w, d, "")
	}
	return dataio.WriteJSONLines(w, d, "")
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
