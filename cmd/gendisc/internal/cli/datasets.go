package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

var cmdDatasets = &Command{
	Name:      "datasets",
	UsageLine: "datasets [--json] | datasets export NAME [--format csv|tsv|jsonl|parquet] --out F",
	Short:     "list the bundled data sets",
	Long: `
Datasets lists the data sets bundled in the gendisc binary: real public data
from the UCI Machine Learning Repository. Any command's --data flag takes
their names when no file of that name exists. --json adds, for each data
set, its classes, source, notes, licence and citation.

Datasets export NAME writes the data set NAME to the file --out ("-" for
standard output), to look at or to reuse what --data NAME reads: as its CSV
text (--format csv, the default), as tab-separated values, or as Parquet
or JSON lines with the column types that gendisc reads from the CSV
(numbers as DOUBLE, or INT64 for a column of integers; categories, text and
classes as strings; missing cells as nulls). The format defaults to the one
--out's extension names (.csv, .tsv, .jsonl or .json or .ndjson, .parquet;
the text formats may end in .gz or .zst, and are then compressed); any other
extension is refused.

Example:

	gendisc datasets
	gendisc fit --data wine --model gaussian-nb --out wine.json
	gendisc datasets export iris --out iris.parquet`,
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
	f, err := outputFormat(path, format)
	if err != nil {
		return err
	}
	if _, ok := datasets.Info(name); !ok {
		return usagef("datasets export: no bundled data set %q (%s)", name, strings.Join(datasets.Names(), ", "))
	}
	r, err := datasets.Open(name)
	if err != nil {
		return err
	}
	defer r.Close()
	out, err := env.create(path)
	if err != nil {
		return err
	}
	defer out.Abort()
	switch f.encoding {
	case "csv", "tsv":
		out.format = f // the data set's CSV text, converted
		_, err = io.Copy(out, r)
	default:
		// Written here, with the data set's target as labels: the
		// output compresses the bytes.
		out.format = rowFormat{compression: f.compression}
		var d *data.Dataset
		d, err = data.Read(r, name, data.Options{})
		if err != nil {
			break
		}
		if f.encoding == "parquet" {
			err = data.WriteParquet(out, d, "")
		} else {
			err = data.WriteJSONLines(out, d, "")
		}
	}
	if err != nil {
		return err
	}
	return out.Commit()
}

func listDatasets(env *Env, asJSON bool) error {
	all := datasets.All()
	if asJSON {
		return writeJSON(env.Stdout, all)
	}
	rows := make([][]string, len(all))
	for i, d := range all {
		rows[i] = []string{d.Name, strconv.Itoa(d.Rows), strconv.Itoa(d.Features), strconv.Itoa(len(d.Classes)), strconv.Itoa(d.Missing), d.FeatureTypes}
	}
	if err := writeTable(env.Stdout, []string{"name", "rows", "features", "classes", "missing", "feature types"}, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(env.Stdout, "\nData: %s.\nEach file's own citation: gendisc datasets --json.\n", datasets.UCICitation)
	return err
}
