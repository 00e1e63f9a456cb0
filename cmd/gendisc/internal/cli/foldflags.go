package cli

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// foldFlags are the flags of a fold assignment, which cv and tune share:
// --folds K|loo, --repeats R, --group COLUMN, --folds-in FILE,
// --folds-out FILE and --seed (the command's own, or the kind's when its
// fit takes one: the seed of the folds too).
type foldFlags struct {
	folds    string // a number, or "loo"
	repeats  int
	group    string
	foldsIn  string
	foldsOut string
	seed     func() uint64 // --seed, the command's or the kind's
	ownSeed  bool          // --seed is the command's, not the kind's
	given    []string      // --folds, --group, --repeats and the command's own --seed, as given
}

// register defines --folds (defaultK folds unless given), --repeats,
// --group, --folds-in and --folds-out on fs; stdoutNote says what
// --folds-out - writes in place of.
func (f *foldFlags) register(fs *flag.FlagSet, defaultK int, stdoutNote string) {
	fs.StringVar(&f.folds, "folds", strconv.Itoa(defaultK), "the number of `folds`, at least 2, or loo for leave-one-out")
	fs.IntVar(&f.repeats, "repeats", 1, "repeat the cross-validation this many `times`, with the seeds S, S+1, ...")
	fs.StringVar(&f.group, "group", "", "keep the rows of each value of this `column` in one fold")
	fs.StringVar(&f.foldsOut, "folds-out", "", "write the fold assignment to this CSV `file`; - for standard output"+stdoutNote)
	fs.StringVar(&f.foldsIn, "folds-in", "", "take the fold assignment from this CSV `file` (header fold, one fold number per row)")
}

// registerSeed defines --seed on fs, with usage, unless the kind's flags,
// defined before, have one (the kinds whose fit draws); either way --seed
// is then the seed of the folds.
func (f *foldFlags) registerSeed(fs *flag.FlagSet, usage string) {
	f.ownSeed = fs.Lookup("seed") == nil
	if f.ownSeed {
		fs.Uint64("seed", 1, usage)
	}
	f.seed = func() uint64 {
		v, _ := strconv.ParseUint(fs.Lookup("seed").Value.String(), 10, 64)
		return v
	}
}

// noteGiven records, once fs is parsed, which of the flags that
// --folds-in replaces were given.
func (f *foldFlags) noteGiven(fs *flag.FlagSet) {
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "folds", "group", "repeats":
			f.given = append(f.given, dashed(fl.Name))
		case "seed": // the fit's too, for a kind that defines it
			if f.ownSeed {
				f.given = append(f.given, dashed(fl.Name))
			}
		}
	})
}

// check returns the misuse of the fold flags that the data does not
// decide, and the number of folds (0 for leave-one-out or --folds-in).
func (f *foldFlags) check() (k int, err error) {
	if f.foldsIn != "" {
		if len(f.given) > 0 {
			return 0, usagef("--folds-in gives the folds: it does not go with %s", strings.Join(f.given, ", "))
		}
		return 0, nil
	}
	if f.repeats < 1 {
		return 0, usagef("--repeats %d: want at least 1", f.repeats)
	}
	if f.foldsOut != "" && f.repeats > 1 {
		return 0, usagef("--folds-out writes one assignment: it does not go with --repeats %d", f.repeats)
	}
	if f.folds == "loo" {
		if f.group != "" || f.repeats > 1 {
			return 0, usagef("--folds loo has one fold per row: it does not go with --group or --repeats")
		}
		return 0, nil
	}
	k, err = strconv.Atoi(f.folds)
	if err != nil || k < 2 {
		return 0, usagef("--folds %q: want a number of folds of at least 2, or loo", f.folds)
	}
	return k, nil
}

// foldsFile returns the assignment of --folds-in, of n rows or
// sentences.
func (f *foldFlags) foldsFile(n int) ([]cv.Folds, error) {
	file, err := os.Open(f.foldsIn)
	if err != nil {
		return nil, pathError(f.foldsIn, err)
	}
	defer file.Close()
	folds, err := cv.ReadFolds(file, f.foldsIn, n)
	if err != nil {
		return nil, err
	}
	return []cv.Folds{folds}, nil
}

// withGroup returns opt with the --group column read as categorical.
func (f *foldFlags) withGroup(opt dataio.Options) dataio.Options {
	if f.group != "" {
		opt.Categorical = append(opt.Categorical, f.group)
	}
	return opt
}

// assign returns the fold assignments of d, read as withGroup says,
// and d without the --group column: read from --folds-in, leave-one-out
// for k = 0, or --repeats draws of k folds (cv.Assign), by the groups of
// --group when given.
func (f *foldFlags) assign(d *data.Dataset, k int) (*data.Dataset, []cv.Folds, error) {
	if f.foldsIn != "" {
		folds, err := f.foldsFile(d.N)
		return d, folds, err
	}
	if k == 0 {
		return d, []cv.Folds{cv.LeaveOneOut(d.N)}, nil
	}
	var groups []string
	if f.group != "" {
		var err error
		if d, groups, err = groupColumn(d, f.group); err != nil {
			return nil, nil, err
		}
	}
	if k > d.N {
		return nil, nil, fmt.Errorf("%s: --folds %d is more than its %s", d.Source, k, count(d.N, "row", "rows"))
	}
	folds, err := cv.Repeat(f.repeats, f.seed(), func(seed uint64) (cv.Folds, error) {
		return cv.Assign(d, k, groups, seed)
	})
	return d, folds, err
}

// groupColumn returns d without its feature column named name, read as
// categorical, and that column's value in every row: the groups of
// --group. A row without a value is an error naming its line.
func groupColumn(d *data.Dataset, name string) (*data.Dataset, []string, error) {
	j := d.Schema.Feature(name)
	if j < 0 {
		return nil, nil, fmt.Errorf("%s: --group %s: no feature column of that name (the target cannot group the rows)", d.Source, name)
	}
	levels := d.Schema.Features[j].Levels
	groups := make([]string, d.N)
	for i := range d.N {
		v := d.X[i*d.D()+j]
		if math.IsNaN(v) {
			return nil, nil, d.RowError(i, "column %q: no value: --group needs the group of every row", name)
		}
		groups[i] = levels[int(v)]
	}
	keep := make([]int, 0, d.D()-1)
	for c := range d.D() {
		if c != j {
			keep = append(keep, c)
		}
	}
	return selectFeatures(d, keep), groups, nil
}
