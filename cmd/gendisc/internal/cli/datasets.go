package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
)

var cmdDatasets = &Command{
	Name:      "datasets",
	UsageLine: "datasets [--json] | datasets export NAME [--format csv|tsv|jsonl|parquet] --out F",
	Short:     "list the bundled data sets",
	Long: `
Datasets lists the data sets bundled in the gendisc binary: real public data
from the UCI Machine Learning Repository, and the text corpora for language
models (tinyshakespeare, plain text, one document a line) and text
classification (shakespeare_speeches, a CSV of speeches and speakers), with
their size and licence. Any command's --data flag takes their names when
no file of that name exists; a plain-text corpus is read by --model ngram.
--json adds, for each data set, its classes, source, notes, licence and
citation, and lists the corpora after them, marked "kind": "corpus".

Datasets export NAME writes the data set or corpus NAME to the file --out
("-" for standard output), to look at or to reuse what --data NAME reads:
as its CSV text (--format csv, the default; a plain-text corpus as its
text), as tab-separated values, or as Parquet or JSON lines with the
column types that gendisc reads from the CSV (numbers as DOUBLE, or INT64
for a column of integers; categories, text and classes as strings; missing
cells as nulls). The format defaults to the one --out's extension names
(.csv, .tsv, .jsonl or .json or .ndjson, .parquet; the text formats may
end in .gz or .zst, and are then compressed); any other extension is
refused.

Example:

	gendisc datasets
	gendisc fit --data wine --model gaussian-nb --out wine.json
	gendisc datasets export iris --out iris.parquet
	gendisc datasets export tinyshakespeare --out tinyshakespeare.txt`,
	Args: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		asJSON := fs.Bool("json", false, "print JSON, with each data set's classes, source, licence and citation")
		format := fs.String("format", "", "export: the `format` of --out, csv, tsv, jsonl or parquet (default: by --out's extension, else csv)")
		out := fs.String("out", "", "export: write the data set to this `file` (\"-\" for standard output)")
		return func(ctx context.Context, env *Env) error {
			switch {
			case fs.NArg() == 0 && (*format != "" || *out != ""):
				return usagef("--format and --out are flags of datasets export")
			case fs.NArg() == 0:
				return listDatasets(env, *asJSON)
			case fs.Arg(0) != "export":
				return usagef("datasets: unknown argument %q (datasets export NAME --out F writes a data set)", fs.Arg(0))
			case fs.NArg() != 2:
				return usagef("datasets export: want one data set name, got %d arguments", fs.NArg()-1)
			case *out == "":
				return usagef("datasets export: --out is required")
			}
			return exportDataset(env, fs.Arg(1), *format, *out)
		}
	},
}

// exportDataset writes the bundled data set name to path in format, or
// the one path's extension names (outputFormat).
func exportDataset(env *Env, name, format, path string) error {
	r, plain, err := openBundled(name)
	if err != nil {
		return usagef("datasets export: %v", err)
	}
	defer r.Close()
	var f rowFormat
	if plain {
		if format != "" {
			return usagef("datasets export: %s is plain text, not a table: --format %s does not apply", name, format)
		}
		f, err = textFormat(path)
	} else {
		f, err = outputFormat(path, format)
	}
	if err != nil {
		return err
	}
	out, err := env.create(path)
	if err != nil {
		return err
	}
	defer out.Abort()
	switch f.encoding {
	case "":
		out.format = f // a corpus's text, compressed as the name says
		_, err = io.Copy(out, r)
	case "csv", "tsv":
		out.format = f // the data set's CSV text, converted
		_, err = io.Copy(out, r)
	default:
		// Written here, with the data set's target as labels: the
		// output compresses the bytes.
		out.format = rowFormat{compression: f.compression}
		var d *data.Dataset
		d, err = dataio.Read(r, name, dataio.Options{})
		if err != nil {
			break
		}
		if f.encoding == "parquet" {
			err = dataio.WriteParquet(out, d, "")
		} else {
			err = dataio.WriteJSONLines(out, d, "")
		}
	}
	if err != nil {
		return err
	}
	return out.Commit()
}

// corpusJSON is a corpus as datasets --json lists it, after the data sets.
type corpusJSON struct {
	Kind string `json:"kind"` // "corpus"
	datasets.Corpus
}

func listDatasets(env *Env, asJSON bool) error {
	all := datasets.All()
	corpora := datasets.Corpora()
	if asJSON {
		list := make([]any, 0, len(all)+len(corpora))
		for _, d := range all {
			list = append(list, d)
		}
		for _, c := range corpora {
			list = append(list, corpusJSON{"corpus", c})
		}
		return writeJSON(env.Stdout, list)
	}
	rows := make([][]string, len(all))
	for i, d := range all {
		rows[i] = []string{d.Name, strconv.Itoa(d.Rows), strconv.Itoa(d.Features), strconv.Itoa(len(d.Classes)), strconv.Itoa(d.Missing), d.FeatureTypes}
	}
	if err := writeTable(env.Stdout, []string{"name", "rows", "features", "classes", "missing", "feature types"}, rows); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(env.Stdout, "\nData: %s.\nEach file's own citation: gendisc datasets --json.\n\nText corpora (--model ngram reads plain text):\n\n", datasets.UCICitation); err != nil {
		return err
	}
	rows = make([][]string, len(corpora))
	for i, c := range corpora {
		what := "CSV"
		if c.PlainText() {
			what = "plain text"
		}
		rows[i] = []string{c.Name, fmt.Sprintf("%.1f MB", float64(c.Bytes)/1e6), what, c.License}
	}
	return writeTable(env.Stdout, []string{"name", "size", "format", "licence"}, rows)
}

// bundledNames returns the names of the bundled data sets and corpora,
// sorted.
func bundledNames() []string {
	names := datasets.Names()
	for _, c := range datasets.Corpora() {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

// openBundled opens the bundled data set or corpus name, plain reporting
// a plain-text corpus; the error of an unknown name lists the names.
func openBundled(name string) (r io.ReadCloser, plain bool, err error) {
	if _, ok := datasets.Info(name); ok {
		r, err = datasets.Open(name)
		return r, false, err
	}
	if c, ok := datasets.CorpusInfo(name); ok {
		r, err = datasets.OpenCorpus(name)
		return r, c.PlainText(), err
	}
	return nil, false, fmt.Errorf("no bundled data set or corpus %q (%s)", name, strings.Join(bundledNames(), ", "))
}
