package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"github.com/gendisc/gendisc/datasets"
)

var cmdDatasets = &Command{
	Name:      "datasets",
	UsageLine: "datasets [--json]",
	Short:     "list the bundled data sets",
	Long: `
Datasets lists the data sets bundled in the gendisc binary: real public data
from the UCI Machine Learning Repository. Any command's --data flag takes
their names when no file of that name exists. --json adds, for each data
set, its classes, source, notes, licence and citation.

Example:

	gendisc datasets
	gendisc fit --data wine --model gaussian-nb --out wine.json`,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		asJSON := fs.Bool("json", false, "print JSON, with each data set's classes, source, licence and citation")
		return func(ctx context.Context, env *Env) error { return listDatasets(env, *asJSON) }
	},
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
