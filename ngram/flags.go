package ngram

import (
	"flag"
	"fmt"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

// flags defines the command-line flags of kind ngram on fs, those of
// Config and --paragraphs, and returns the function that gives the
// configuration once they are parsed (ParagraphConfig).
func flags(fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := Config{Order: 3, MinCount: 1}
	fs.Var(modelflags.AtLeast(&cfg.Order, 1), "order", "the n-gram `length` n: each word is predicted from the n−1 before it")
	fs.Var((*smoothingFlag)(&cfg.Smoothing), "smoothing", "the `smoothing`: kneser-ney (interpolated modified), witten-bell, lidstone (with --alpha) or mle (unseen n-grams get probability 0)")
	alpha := modelflags.Positive(1)
	fs.Var(&alpha, "alpha", "lidstone's pseudo-count `α` added to every word's count (1 is Laplace)")
	fs.Var(modelflags.AtLeast(&cfg.MinCount, 1), "min-count", "keep the words seen at least `n` times; rarer ones become <unk>")
	fs.BoolVar(&cfg.KeepPunct, "keep-punct", false, "keep case and punctuation as tokens (generated text reads better)")
	fs.StringVar(&cfg.Column, "column", "", "the text `column` to model (default: the only text column)")
	paragraphs := fs.Bool("paragraphs", false, "a document is a paragraph: lines up to a blank line (default: one document per line of a .txt file)")
	return func() (registry.Config, error) {
		c := ParagraphConfig{Config: cfg, Paragraphs: *paragraphs}
		c.Alpha = float64(alpha)
		return registry.OnePassShared(c, c.Fit, c.NewAccumulator, c.SameStatistics, c.ModelFrom), nil
	}
}

// smoothingFlag sets a Smoothing by name.
type smoothingFlag Smoothing

func (f *smoothingFlag) String() string { return Smoothing(*f).String() }

func (f *smoothingFlag) Set(s string) error {
	sm, err := ParseSmoothing(s)
	if err != nil {
		return fmt.Errorf("want kneser-ney, witten-bell, lidstone or mle")
	}
	*f = smoothingFlag(sm)
	return nil
}

// ParagraphConfig is a Config whose documents may be paragraphs of the
// lines of a plain text.
type ParagraphConfig struct {
	Config
	// Paragraphs joins the lines of a text without a target into
	// paragraphs (JoinParagraphs) before the fit.
	Paragraphs bool
}

// Fit fits the language model of c to d, its lines joined into
// paragraphs first when c.Paragraphs is set.
func (c ParagraphConfig) Fit(d *data.Dataset) (*Model, error) {
	if c.Paragraphs {
		d = JoinParagraphs(d)
	}
	return c.Config.Fit(d)
}

// NewAccumulator returns an empty accumulator of c.Config, to which
// documents are added as they are (NewAccumulator).
func (c ParagraphConfig) NewAccumulator() (*Accumulator, error) { return NewAccumulator(c.Config) }

// JoinParagraphs returns d with the documents of its only text column
// joined into paragraphs: runs of non-empty cells up to an empty one (a
// blank line of a text file), each ending the paragraph's lines with a
// space. Data with a target is returned as it is.
func JoinParagraphs(d *data.Dataset) *data.Dataset {
	if d.Schema.Target != nil || len(d.Text) == 0 {
		return d
	}
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, line := range d.Text[0] {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	flush()
	return data.TextDataset(out, data.Named(d.Source.Name))
}

// SameStatistics reports whether the accumulators of o gather the
// statistics of c's: the same configuration but for the smoothing and
// its α, which apply when the model is made of the counts (ModelFrom).
func (c ParagraphConfig) SameStatistics(o ParagraphConfig) bool {
	c.Smoothing, c.Alpha, o.Smoothing, o.Alpha = 0, 0, 0, 0
	return c == o
}

// ModelFrom returns the model of c made of the counts of a, an
// accumulator of a configuration with the same statistics
// (SameStatistics): the model of c fitted to a's documents. a is not
// changed.
func (c ParagraphConfig) ModelFrom(a *Accumulator) (*Model, error) {
	cfg, err := c.Config.normalized()
	if err != nil {
		return nil, err
	}
	if !(ParagraphConfig{Config: cfg}).SameStatistics(ParagraphConfig{Config: a.cfg}) {
		return nil, fmt.Errorf("%w: counts of another configuration", ErrConfig)
	}
	b := *a
	b.cfg = cfg
	return b.model(false)
}
