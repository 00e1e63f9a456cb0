package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
)

var cmdMerge = &Command{
	Name:      "merge",
	UsageLine: "merge M1.json M2.json ... [--out M.json] [--allow-duplicates]",
	Short:     "merge models of one kind fitted on disjoint parts of the data",
	Long: `
Merge reads model files of one kind, fitted on disjoint parts of a data set
(on several machines, say), and writes the model fitted on all the parts
together, without the data: each model keeps the sufficient statistics of
its training rows (per class weighted counts, means, scatter), and merge
adds them up (Chan's pairwise formulas). The result is the model that fit
would give on all the rows at once, up to rounding.

The models must have the same features and hyperparameters. Classes and
categories that only some parts have are added after the known ones, in
the order of the files. Only the kinds listed below keep their sufficient
statistics; a model of another kind is refused: fit it on all the data.

A model file given twice, or two files of the same model (the same
checksum: the same parameters fitted on the same rows), would count the
same rows twice: merge refuses them, naming both files, unless
--allow-duplicates says that the rows are meant to count twice (to weight
a part double, say).

The output file is written atomically: when merge fails, no file is left.
One of the model files may be standard input (-).

Example:

	gendisc fit --data part1.csv --model lda --out part1.json
	gendisc fit --data part2.csv --model lda --out part2.json
	gendisc merge part1.json part2.json --out lda.json`,
	Args:        true,
	WritesModel: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &mergeOptions{}
		fs.StringVar(&o.out, "out", "-", "write the merged model to this `file`; - for standard output")
		fs.BoolVar(&o.allowDuplicates, "allow-duplicates", false, "merge a model file given twice, or files of the same model, counting their rows twice")
		return func(ctx context.Context, env *Env) error { return o.run(env, fs.Args()) }
	},
	MoreHelp: func(w io.Writer) {
		if names := mergeableKinds(); len(names) > 0 {
			fmt.Fprintf(w, "\nKinds that merge takes: %s.\n", strings.Join(names, ", "))
		} else {
			fmt.Fprintf(w, "\nNo kind of this build of gendisc keeps its sufficient statistics.\n")
		}
	},
}

// mergeableKinds returns the names of the kinds whose models keep their
// sufficient statistics (gendisc.Mergeable), which merge and update take,
// in sorted order.
func mergeableKinds() []string {
	return kindsWith((*registry.Kind).Mergeable)
}

type mergeOptions struct {
	out             string
	allowDuplicates bool
}

// run merges the models of the files: the accumulator of the first
// model, into which those of the others are merged.
func (o *mergeOptions) run(env *Env, files []string) error {
	if len(files) == 0 {
		return usagef("missing the model files to merge")
	}
	stdin := 0
	for _, f := range files {
		if f == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return usagef("only one of the model files can be standard input (-)")
	}
	var (
		acc         gendisc.Accumulator
		first, kind string                // the first file and its kind
		seen        = map[string]string{} // the file of each checksum
	)
	for _, path := range files {
		e, m, err := env.loadModel(path)
		if err != nil {
			return err
		}
		mg, ok := m.(gendisc.Mergeable)
		if !ok {
			takes := "no kind of this build does"
			if names := mergeableKinds(); len(names) > 0 {
				takes = "merge takes " + strings.Join(names, ", ")
			}
			return wrongKind(path, e.Kind, fmt.Sprintf("cannot be merged: model kind %s does not keep its sufficient statistics (%s)", e.Kind, takes))
		}
		if other, dup := seen[e.Checksum]; dup && !o.allowDuplicates {
			return duplicateModel(other, path, e.Checksum)
		}
		seen[e.Checksum] = path
		if acc == nil {
			acc, first, kind = mg.Accumulator(), path, e.Kind
			continue
		}
		if e.Kind != kind {
			return fmt.Errorf("%s: a %s model, and %s a %s model: merge takes models of one kind", path, e.Kind, first, kind)
		}
		if err := acc.Merge(mg.Accumulator()); err != nil {
			return fmt.Errorf("%s: cannot be merged with %s: %w", path, first, err)
		}
	}
	m, err := acc.Model()
	if err != nil {
		return err
	}
	env.verbosef("%d %s models merged", len(files), kind)
	return env.writeModel(o.out, persistent(m))
}

// duplicateModel is merge's refusal of the model file b, the same model
// as the file a (of the same checksum), or a itself given twice.
func duplicateModel(a, b, checksum string) error {
	const twice = "merging would count its training rows twice (give --allow-duplicates if that is meant)"
	if a == b || sameFile(a, b) {
		return fmt.Errorf("%s is given twice: %s", a, twice)
	}
	return fmt.Errorf("%s and %s hold the same model (%s): %s", a, b, checksum, twice)
}

// sameFile reports whether the paths a and b name one file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
