package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/synth"
)

var cmdSample = &Command{
	Name:      "sample",
	UsageLine: "sample --model M.json -n N [--class C] [--clip] [--seed S] [--out S.csv]",
	Short:     "draw synthetic rows from a generative model",
	Long: `
Sample draws N rows from the distribution of a fitted generative model and
writes them as CSV to --out, standard output by default. A classifier
draws the class y with its prior probability and the features from
p(x | y), and the class column comes last; with --class, every row is
drawn from that class. A mixture (gmm) draws a component with its weight,
then the features from it; its rows have no class column.

The header is the training data's: the feature columns in the model's
order, then the class. Categorical values are written as their names, and
a numeric column whose training values were all integers gets rounded
values. Rows are written as they are drawn, so N is limited by time, not
memory. A file given by --out appears only when the draws are complete;
standard output is written as it comes. A progress line is shown on a
terminal for large N unless --quiet. The same --seed gives the same rows.

Gaussian models (gaussian-nb, nb's numeric columns, lda, qda, gmm, mda)
draw values outside the range a column can take: negative ages or
amounts. --clip (off by default for sample; on by default for balance)
truncates each numeric column to its training range, the smallest and
largest value in the rows the model was fitted on, by rejection: a row
with a value outside is drawn again, whole, so the rows follow the
model's distribution restricted to the range, without a pile-up at the
bounds. A row drawn from the joint distribution is redrawn with its
class (the classes then come in the proportions of the restricted
distribution); with --class, only the features are. After 1000 draws of
one row outside the range, its values outside are set to the nearest
bound and a warning says how many rows that happened to. A model file
written before ranges were kept cannot clip: refit it.

A model of tagged sentences (hmm) draws N sentences, word by word with
their tags, in the column format (word, a tab, the tag; a blank line after
each sentence), at most --max-words tokens each, beginning with the words
of --prompt (tagged by the model) or the tags of --prompt-tags.

Example:

	gendisc fit --data iris --model qda --out iris-qda.json
	gendisc sample --model iris-qda.json -n 1000 --class Iris-setosa --seed 7 --out setosa.csv`,
	Required: []string{"model", "n"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &sampleOptions{n: -1}
		fs.StringVar(&o.model, "model", "", "the model `file` (from gendisc fit or cluster); - for standard input")
		fs.Var(&o.n, "n", "draw `N` rows")
		fs.StringVar(&o.class, "class", "", "draw every row from this `class` (default: classes drawn by their priors)")
		fs.Uint64Var(&o.seed, "seed", 1, "`seed` of the random draws")
		fs.BoolVar(&o.clip, "clip", false, "truncate numeric columns to their training range by rejection (default off for sample)")
		fs.StringVar(&o.out, "out", "-", "write the rows to this `file`; - for standard output")
		o.lm = sampleLMFlags(fs)
		fs.StringVar(&o.promptTags, "prompt-tags", "", "a tagger (hmm) starts each sentence with these `tags`, space-separated (--prompt: with these words)")
		return withOutFormat(fs, func(ctx context.Context, env *Env) error { return o.run(ctx, env) })
	},
}

type sampleOptions struct {
	model, class, out string
	n                 countFlag
	seed              uint64
	clip              bool
	lm                *lmSampleFlags
	promptTags        string // a tagger's (sequences.go)
}

// progressEvery is how many rows sample draws between progress updates.
const progressEvery = 1 << 12

func (o *sampleOptions) run(ctx context.Context, env *Env) error {
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	if isLM, err := sampleLanguageModel(env, o, m); isLM {
		return err
	}
	if isTagger, err := sampleSentences(env, o, m); isTagger {
		return err
	}
	s, err := modelAs[gendisc.Sampler](o.model, m, "does not draw rows")
	if err != nil {
		return err
	}
	class := -1
	if o.class != "" {
		cs, ok := m.(gendisc.ClassSampler)
		if !ok {
			return usagef("--class: a %s model has no classes", e.Kind)
		}
		if class = slices.Index(cs.Classes(), o.class); class < 0 {
			return usagef("--class %q: the model's classes are %s", o.class, strings.Join(cs.Classes(), ", "))
		}
	}
	clip, err := trainingClip(o.clip, o.model, s.Schema())
	if err != nil {
		return err
	}
	w, commit, abort, err := env.stdoutOrCreate(o.out, true)
	if err != nil {
		return err
	}
	defer abort()
	rw, err := newRowWriter(w, s.Schema(), nil, true, "")
	if err != nil {
		return err
	}
	bar := env.progress()
	n, done := int(o.n), 0
	err = synth.Sample(s, n, class, clip, rand.New(rand.NewPCG(o.seed, 0)), func(r synth.Row) error {
		if done++; done%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			bar("sample: %d of %d rows", done, n)
		}
		return rw.write(nil, r.X, r.Text, float64(r.Y), 1)
	})
	bar("")
	if errors.Is(err, synth.ErrClass) { // the class is known: its prior is 0
		return fmt.Errorf("%s: --class %q: the model has no training rows of that class to draw from", o.model, o.class)
	}
	if err == nil {
		err = rw.flush()
	}
	if err != nil {
		return err
	}
	env.clipNotes("sample", clip)
	return commit()
}

// trainingClip returns the synth.Clip to the training ranges of schema s
// (the schema of model file path) when on, nil otherwise; the error of a
// model file without ranges names the file and the way out.
func trainingClip(on bool, path string, s *data.Schema) (*synth.Clip, error) {
	if !on {
		return nil, nil
	}
	c, err := synth.TrainingClip(s)
	if errors.Is(err, synth.ErrNoRange) {
		return nil, fmt.Errorf("%s: --clip: %v: the model file is from before training ranges were kept; fit the model again, or draw with --clip=false", path, strings.TrimPrefix(err.Error(), "synth: "))
	}
	return c, err
}

// clipNotes reports on standard error, after the draws of command cmd
// through clip (nil without --clip), the rows that were clamped when
// rejection failed, and with --verbose the acceptance.
func (env *Env) clipNotes(cmd string, clip *synth.Clip) {
	if clip == nil || clip.Rows == 0 {
		return
	}
	if note := clip.Note(); note != "" {
		env.warnf("%s: --clip: %s", cmd, note)
	}
	env.verbosef("%s: --clip: %d draws for %d rows (acceptance %.3g)", cmd, clip.Draws, clip.Rows, clip.Acceptance())
}

// countFlag is a number of rows: an integer ≥ 0. String is "" until set,
// so that Command.Required can require it.
type countFlag int

func (f *countFlag) String() string {
	if f == nil || *f < 0 {
		return ""
	}
	return strconv.Itoa(int(*f))
}

func (f *countFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number ≥ 0")
	}
	*f = countFlag(n)
	return nil
}
