package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

var cmdDatasets = &Command{
	Name:      "datasets",
	UsageLine: "datasets [--json] | datasets export NAME [--format csv|parquet|jsonl] --out F",
	Short:     "list the bundled data sets",
	Long: `
Datasets lists the data sets bundled in the gendisc binary: real public data
from the UCI Machine Learning Repository. Any command's --data flag takes
their names when no file of that name exists. --json adds, for each data
set, its classes, source, notes, licence and citation.

Datasets export NAME writes the data set NAME to the file --out ("-" for
standard output), to look at or to reuse what --data NAME reads: as its CSV
text (--format csv, the default), or as Parquet or JSON lines with the
column types that gendisc reads from the CSV (numbers as DOUBLE, or INT64
for a column of integers; categories, text and classes as strings; missing
cells as nulls). The format defaults to the one --out's extension names
(.csv, .parquet, .jsonl, .ndjson).

Example:

	gendisc datasets
	gendisc fit --data wine --model gaussian-nb --out wine.json
	gendisc datasets export iris --out iris.parquet`,
	Args: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		asJSON := fs.Bool("json", false, "print JSON, with each data set's classes, source, licence and citation")
		format := fs.String("format", "", "export: the `format` of --out, csv, parquet or jsonl (default: by --out's extension, else csv)")
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

// exportFormat returns the format of datasets export: format, or the one
// the extension of path names, else csv.
func exportFormat(format, path string) (string, error) {
	if format == "" {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".parquet":
			return "parquet", nil
		case ".jsonl", ".ndjson":
			return "jsonl", nil
		}
		return "csv", nil
	}
	switch format {
	case "csv", "parquet", "jsonl":
		return format, nil
	}
	return "", usagef("--format %q: want csv, parquet or jsonl", format)
}

// exportDataset writes the bundled data set name to path in format.
func exportDataset(env *Env, name, format, path string) error {
	format, err := exportFormat(format, path)
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
	out.parquet = false // written here, not from CSV text
	switch format {
	case "csv":
		_, err = io.Copy(out, r)
	default:
		var d *data.Dataset
		d, err = data.Read(r, name, data.Options{})
		if err != nil {
			break
		}
		if format == "parquet" {
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
