package cli

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/dataio"
)

var cmdSplit = &Command{
	Name:      "split",
	UsageLine: "split --data F [--target NAME] [--test 0.2] [--seed S] --train A.csv --test-out B.csv",
	Short:     "split a data set into stratified training and test files",
	Long: `
Split writes the rows of a data set into two CSV files with the same
header: a training file (--train) and a test file (--test-out) holding the
fraction --test of the rows. The split is stratified: within each class of
the target column (the last column unless --target names another; rows
with an empty target form a group of their own) round(fraction × rows)
rows, chosen at random with --seed, go to the test file, so that both files
keep the class proportions. Rows keep their order and their cells are
written as read (quoted where CSV needs it). The same seed gives the same
files. Both files are written atomically.

Example:

	gendisc split --data sms_spam --test 0.2 --seed 1 --train train.csv --test-out test.csv`,
	Required: []string{"data", "train", "test-out"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &splitOptions{test: 0.2}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.target, "target", "", "the `column` whose classes are kept in proportion (default: the last column)")
		fs.Float64Var(&o.test, "test", o.test, "the `fraction` of the rows of each class that go to the test file")
		fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the random choice of test rows")
		fs.StringVar(&o.train, "train", "", "write the training rows to this `file`")
		fs.StringVar(&o.testOut, "test-out", "", "write the test rows to this `file`")
		return func(ctx context.Context, env *Env) error {
			if !(o.test > 0 && o.test < 1) {
				return usagef("--test %v: want a fraction between 0 and 1", o.test)
			}
			return o.run(env)
		}
	},
}

type splitOptions struct {
	data, target, train, testOut string
	test                         float64
	seed                         uint64
}

func (o *splitOptions) run(env *Env) error {
	r, source, err := env.openData(o.data)
	if err != nil {
		return err
	}
	defer r.Close()
	header, rows, comma, err := readRecords(r, source, env.limits)
	if err != nil {
		return err
	}
	col := len(header) - 1
	if o.target != "" {
		if col = slices.Index(header, o.target); col < 0 {
			return fmt.Errorf("%s: no column %q", source, o.target)
		}
	}
	isTest := stratifiedTest(rows, col, o.test, rand.New(rand.NewPCG(o.seed, 0)))
	var train, test [][]string
	for i, row := range rows {
		if isTest[i] {
			test = append(test, row)
		} else {
			train = append(train, row)
		}
	}
	env.verbosef("%s: %d training rows, %d test rows", source, len(train), len(test))
	outTrain, err := env.createRows(o.train)
	if err != nil {
		return err
	}
	defer outTrain.Abort()
	outTest, err := env.createRows(o.testOut)
	if err != nil {
		return err
	}
	defer outTest.Abort()
	for _, f := range []struct {
		w    io.Writer
		rows [][]string
	}{{outTrain, train}, {outTest, test}} {
		w := csv.NewWriter(f.w)
		w.Comma = comma
		w.Write(header)
		w.WriteAll(f.rows)
		if err := w.Error(); err != nil {
			return err
		}
	}
	if err := outTrain.Commit(); err != nil {
		return err
	}
	return outTest.Commit()
}

// readRecords reads a CSV or TSV file (tab-separated when the header has
// a tab and no comma; a leading byte-order mark dropped): the header, the
// rows, and the delimiter.
func readRecords(r io.Reader, source string, limits dataio.Limits) (header []string, rows [][]string, comma rune, err error) {
	in, err := dataio.Open(r, source)
	if err != nil {
		return nil, nil, 0, err
	}
	if in.Format != dataio.CSV {
		return nil, nil, 0, fmt.Errorf("%s: a %v file: split reads CSV and TSV (compressed or not)", source, in.Format)
	}
	// The file is held three times over: its bytes, a string and the
	// records.
	b, err := dataio.ReadText(in, source, limits, 3)
	if err != nil {
		return nil, nil, 0, err
	}
	s := strings.TrimPrefix(string(b), "\ufeff")
	first, _, _ := strings.Cut(s, "\n")
	comma = ','
	if strings.Contains(first, "\t") && !strings.Contains(first, ",") {
		comma = '\t'
	}
	cr := csv.NewReader(strings.NewReader(s))
	cr.Comma = comma
	records, err := cr.ReadAll()
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", source, err)
	}
	if len(records) < 2 {
		return nil, nil, 0, fmt.Errorf("%s: no data rows", source)
	}
	return records[0], records[1:], comma, nil
}

// stratifiedTest chooses the test rows: in each group of rows with the
// same value in column col, round(fraction × group size) rows drawn
// without replacement.
func stratifiedTest(rows [][]string, col int, fraction float64, rng *rand.Rand) []bool {
	groups := map[string][]int{}
	var order []string
	for i, row := range rows {
		v := row[col]
		if groups[v] == nil {
			order = append(order, v)
		}
		groups[v] = append(groups[v], i)
	}
	isTest := make([]bool, len(rows))
	for _, v := range order { // in order of first occurrence: deterministic draws
		idx := groups[v]
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx[:int(math.Round(fraction*float64(len(idx))))] {
			isTest[i] = true
		}
	}
	return isTest
}
