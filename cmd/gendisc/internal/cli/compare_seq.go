package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// compare on sequence data: when --data names sentences (a bundled
// treebank, or a .conllu, .conll or .jsonl file, compressed or not), the
// models are the kinds of registry.Sequences whose configuration is a
// registry.SequenceConfig (hmm; crf when it has flags) and the per-token
// pair of tokenModels, and compare.RunSequences draws the curves by the
// number of training sentences. The sentences are read as fit reads them,
// with the same flags (seqFlags: --tags, --tag-column, --seq-format).

// tokenModels are compare's models of sentences that classify each token
// by itself, ignoring the sequence (compare.TokenLearner), by name: the
// kind of table that classifies the tokens' features, with its flags.
var tokenModels = map[string]string{"nb-token": naivebayes.KindMixed, "logistic-token": logistic.Kind}

// tokenModelNames returns the names of tokenModels, generative first.
func tokenModelNames() []string { return []string{"nb-token", "logistic-token"} }

// sequenceKindNames returns the kinds that tag sentences, sorted.
func sequenceKindNames() []string { return kindsWith(sequenceInput) }

// sequenceModelNames returns compare's models of sentences.
func sequenceModelNames() []string { return append(sequenceKindNames(), tokenModelNames()...) }

// sequenceData reports whether the --data names are sequence data: each
// a bundled treebank or a file of a sequence format by its extension, or
// any with --seq-format; a mix of sequence data and tables is a misuse.
func (o *compareOptions) sequenceData() (bool, error) {
	if o.seq.options().Format != seqio.Auto {
		return true, nil
	}
	var sentences, tables []string
	for _, name := range o.data {
		if isSequenceName(name) {
			sentences = append(sentences, name)
		} else {
			tables = append(tables, name)
		}
	}
	if len(sentences) > 0 && len(tables) > 0 {
		return false, usagef("--data: %s is sequence data and %s a table: compare one or the other", sentences[0], tables[0])
	}
	return len(sentences) > 0, nil
}

// isSequenceName reports whether name is a bundled treebank or a file of
// a sequence format by its extension (.conllu, .conll, .jsonl or
// .crfsuite, before a compression suffix).
func isSequenceName(name string) bool {
	if _, ok := datasets.TreebankInfo(name); ok {
		return true
	}
	base := strings.ToLower(filepath.Base(name))
	for _, c := range []string{".gz", ".bz2", ".xz", ".zst"} {
		base = strings.TrimSuffix(base, c)
	}
	return slices.Contains([]string{".conllu", ".conll", ".jsonl", ".crfsuite"}, filepath.Ext(base))
}

// modelsByDefault returns the models of a run without --models: Ng and
// Jordan's pair for tables, every model of sentences for sentences.
func (o *compareOptions) modelsByDefault() []string {
	if o.sentences {
		return sequenceModelNames()
	}
	return slices.Clone(defaultModels)
}

// checkModel returns the misuse of a --models name that the data cannot
// take.
func (o *compareOptions) checkModel(name string) error {
	if !o.sentences {
		if _, err := lookupKind(name); err != nil {
			return usagef("--models: %v", err)
		}
		return nil
	}
	if !slices.Contains(sequenceModelNames(), name) {
		return usagef("--models: %s is not a model of sentences (--data is sequence data; models: %s)", name, strings.Join(sequenceModelNames(), ", "))
	}
	return nil
}

// kindsOfModels returns the kinds whose flags the models of --models take.
func (o *compareOptions) kindsOfModels() []string {
	var out []string
	for _, name := range o.models {
		if k, ok := tokenModels[name]; ok && o.sentences {
			name = k
		}
		out = append(out, name)
	}
	return out
}

// readWords reads the sentences of a --data or --test-data name with the
// reading flags; sentences given as attributes are an error.
func (o *compareOptions) readWords(env *Env, name string) (*seq.Corpus, error) {
	c, err := env.readSentences(name, &o.seq)
	if err != nil {
		return nil, err
	}
	if c.GivenAttributes() {
		return nil, fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format): compare's models read words", c.Source)
	}
	return c, nil
}

// runSequences reads the sentences of --data, runs compare.RunSequences
// with the models of --models, writes the report and prints the table.
func (o *compareOptions) runSequences(ctx context.Context, env *Env) error {
	var tasks []compare.SequenceTask
	for _, name := range o.data {
		c, err := o.readWords(env, name)
		if err != nil {
			return err
		}
		label := name
		if _, ok := datasets.TreebankInfo(name); !ok {
			label = strings.SplitN(filepath.Base(name), ".", 2)[0]
		}
		if slices.ContainsFunc(tasks, func(t compare.SequenceTask) bool { return t.Name == label }) {
			return usagef("--data: %s appears twice", name)
		}
		task := compare.SequenceTask{Name: label, Sentences: c.Tagged()}
		if len(o.testData) > 0 {
			test, err := o.readWords(env, o.testData[len(tasks)])
			if err != nil {
				return err
			}
			task.Test, task.TestName = test.Tagged(), o.testData[len(tasks)]
		}
		tasks = append(tasks, task)
	}
	probe := tasks[0].Sentences[:min(compare.MinSequenceSize, len(tasks[0].Sentences))]
	learners := make([]compare.SequenceLearner, len(o.models))
	for l, name := range o.models {
		ln, err := o.sequenceLearner(name, probe)
		if err != nil {
			return err
		}
		learners[l] = ln
	}
	cfg := compare.Config{Splits: o.splits, Sizes: o.sizes, Seed: o.seed, Jobs: o.jobs}
	bar := env.compareBar()
	if bar != nil {
		cfg.Progress = bar.show
	}
	res, err := compare.RunSequences(ctx, tasks, learners, cfg)
	if bar != nil {
		bar.done()
	}
	if err != nil {
		return err
	}
	if err := compare.WriteReport(o.out, res, compare.ReportInfo{Command: o.command, Version: gendiscVersion(), Formats: o.formats}); err != nil {
		return err
	}
	if err := res.WriteSummary(env.Stdout); err != nil {
		return err
	}
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: compare: report in %s\n", filepath.Join(o.out, compare.IndexFile))
	}
	return nil
}

// sequenceLearner returns the learner of a model of sentences. A tagger
// is generative when its model is a gendisc.SequenceDensity (a model of
// the words), which a fit on the probe sentences tells; a fit that fails
// there is an error.
func (o *compareOptions) sequenceLearner(name string, probe []seq.Sentence) (compare.SequenceLearner, error) {
	if kind, ok := tokenModels[name]; ok {
		family := compare.Discriminative
		if k, err := registry.Lookup(kind); err == nil && k.Generative() {
			family = compare.Generative
		}
		fit := o.kinds[kind].fit
		return compare.TokenLearner(name, family, o.settings(kind), func(d *data.Dataset) (gendisc.Classifier, error) {
			m, err := fit(d)
			if err != nil {
				return nil, err
			}
			c, ok := m.(gendisc.Classifier)
			if !ok {
				return nil, fmt.Errorf("a %s model does not classify", kind)
			}
			return c, nil
		}), nil
	}
	config := o.kinds[name].config
	fit := func(train []seq.Sentence) (compare.SentenceTagger, error) {
		c, err := config()
		if err != nil {
			return nil, err
		}
		sc, ok := c.(registry.SequenceConfig)
		if !ok {
			return nil, fmt.Errorf("model kind %s reads sentences but its configuration does not fit them (registry.SequenceConfig)", name)
		}
		m, err := sc.FitSequences(&seq.Corpus{Source: "training sentences", Sentences: train}, nil)
		if err != nil {
			return nil, err
		}
		t, ok := m.(gendisc.Tagger)
		if !ok {
			return nil, fmt.Errorf("a %s model does not tag", name)
		}
		return t, nil
	}
	m, err := fit(probe)
	if err != nil {
		return compare.SequenceLearner{}, fmt.Errorf("--models %s: %w", name, err)
	}
	family := compare.Discriminative
	if _, ok := m.(gendisc.SequenceDensity); ok {
		family = compare.Generative
	}
	return compare.SequenceLearner{Name: name, Family: family, Settings: o.settings(name), Fit: fit}, nil
}
