package cli

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"

	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// cv and tune of the kinds of sentences (registry.Sequences: hmm, crf),
// with the library's cv.SequenceRunner and cv.Search.RunSequences. A
// sentence is a row:
//
//   - --folds K draws plain k-fold assignments of the sentences (there
//     are no classes to stratify by); --repeats and --seed as for
//     tables; --folds-in and --folds-out take and write one fold number
//     per sentence in the order of the file; the "rows" of a fold in the
//     reports are its sentences;
//   - --folds loo is refused: leave-one-out of sentences is --folds N for
//     N sentences, written out, since it fits a CRF N times and keeps N
//     merged HMMs;
//   - --group is refused: sentences have no columns, and the documents
//     of CoNLL-U's "# newdoc id" are not kept by the reader; a fold file
//     (--folds-in) keeps a document's sentences together;
//   - every fold's figures are eval's for a tagger (cv.SequenceReport),
//     --spans adding the span figures of BIO/IOB tags;
//   - an HMM counted from tagged sentences takes one pass, every fold's
//     model the merge of the other folds' counts (up to maxOnePassFolds
//     folds, as for tables); a CRF is refitted per fold from the weights
//     of its fit to all the sentences.
//
// Cores: a kind whose fit has a --jobs flag of its own (the CRF's
// gradient pass) shares the cores with the folds rather than multiplying
// them: with P cores (its --jobs when given, else GOMAXPROCS) and W folds
// fitted at once, W = min(folds, P), each fit gets ⌊P/W⌋ goroutines. The
// figures do not depend on it (a CRF's fit does not depend on --jobs).

// seqCVFlags are the flags cv adds for the kinds of sentences.
type seqCVFlags struct {
	seq   seqFlags
	spans bool
}

// register defines the flags of reading sentences and --spans on fs.
func (f *seqCVFlags) register(fs *flag.FlagSet) {
	f.seq.register(fs)
	fs.BoolVar(&f.spans, "spans", false, "a kind of sentences with BIO/IOB tags: add span-level precision, recall and F1 to every fold's figures")
}

// refitSequences is a configuration of sentences whose folds are
// refitted: the one-pass path hidden.
type refitSequences struct{ registry.SequenceConfig }

// runSequences cross-validates a kind of sentences, the kind's flags
// being on fs, and writes the report as run does for tables.
func (o *cvOptions) runSequences(env *Env, fs *flag.FlagSet) error {
	k, err := o.checkFlags()
	if err != nil {
		return err
	}
	if err := o.checkSentences(); err != nil {
		return err
	}
	c, err := env.readSentences(o.data, &o.seqCV.seq)
	if err != nil {
		return err
	}
	n := len(c.Sentences)
	folds, err := o.assignSentences(c, k)
	if err != nil {
		return err
	}
	total := 0
	for _, f := range folds {
		total += f.K()
	}
	workers, err := shareCores(fs, o.kind, total)
	if err != nil {
		return err
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	sc, ok := cfg.(registry.SequenceConfig)
	if !ok {
		return fmt.Errorf("model kind %s reads sentences but its configuration does not fit them (registry.SequenceConfig)", o.kind.Name)
	}
	if _, onePass := cfg.(registry.OnePassConfig); onePass {
		if maxK := maxFolds(folds); maxK > maxOnePassFolds {
			sc = refitSequences{sc}
			if !env.Quiet {
				fmt.Fprintf(env.Stderr, "gendisc: note: %d folds: more than the %d cv merges statistics for; --model %s is fitted %s\n", maxK, maxOnePassFolds, o.kind.Name, count(maxK, "time", "times"))
			}
		} else {
			env.verbosef("cv: one pass over the sentences, the folds' models merged from their statistics")
		}
	}
	if _, warm := sc.(registry.WarmSequenceConfig); warm {
		env.verbosef("cv: the folds are fitted %d at a time, each from the weights of the fit to all %d sentences", workers, n)
	}
	show := env.progress()
	r := &cv.SequenceRunner{Config: sc, Spans: o.seqCV.spans, Workers: workers,
		Progress: func(done, total int) { show("cv: %d of %d folds", done, total) }}
	res, err := r.Run(c, folds...)
	show("")
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		env.warnf("%s", w)
	}
	if err := env.writeCVFiles(o.foldsOut, o.out, folds[0], res); err != nil {
		return err
	}
	switch {
	case o.out == "-" || o.foldsOut == "-":
		return nil
	case o.json:
		return writeJSON(env.Stdout, res)
	}
	return writeCVText(env.Stdout, res)
}

// maxFolds returns the most folds of the assignments.
func maxFolds(folds []cv.Folds) int {
	k := 0
	for _, f := range folds {
		k = max(k, f.K())
	}
	return k
}

// checkSentences returns the misuse of the fold flags for a kind of
// sentences: leave-one-out (a fit per sentence) and --group (sentences
// have no columns).
func (f *foldFlags) checkSentences() error {
	switch {
	case f.folds == "loo" && f.foldsIn == "":
		return usagef("--folds loo: leave-one-out of sentences fits a model per sentence; give --folds N for N sentences if that is meant")
	case f.group != "":
		return usagef("--group %s: sentences have no columns to group by; keep a document's sentences in one fold with --folds-in FILE (one fold number per sentence)", f.group)
	}
	return nil
}

// assignSentences returns the fold assignments of the sentences of c:
// read from --folds-in (one fold number per sentence), or --repeats draws
// of k folds (cv.SentenceFolds).
func (f *foldFlags) assignSentences(c *seq.Corpus, k int) ([]cv.Folds, error) {
	n := len(c.Sentences)
	if f.foldsIn != "" {
		return f.foldsFile(n)
	}
	if k > n {
		return nil, fmt.Errorf("%s: --folds %d is more than its %s", c.Source, k, count(n, "sentence", "sentences"))
	}
	return cv.Repeat(f.repeats, f.seed(), func(seed uint64) (cv.Folds, error) {
		return cv.SentenceFolds(n, k, seed)
	})
}

// shareCores returns how many of the folds fits to run at once, and, for
// a kind k whose fit has a --jobs flag of its own (kindHasFlag), sets
// that flag on fs to the goroutines of each fit: with P cores (the
// flag's value when above 0, else GOMAXPROCS), min(folds, P) fits of
// ⌊P/min(folds, P)⌋ goroutines each. Without such a flag, min(folds,
// GOMAXPROCS) fits.
func shareCores(fs *flag.FlagSet, k *registry.Kind, folds int) (int, error) {
	if !kindHasFlag(k, "jobs") {
		return max(1, min(folds, runtime.GOMAXPROCS(0))), nil
	}
	workers, perFit := splitCores(fs.Lookup("jobs").Value.String(), folds)
	return workers, fs.Set("jobs", strconv.Itoa(perFit))
}

// kindHasFlag reports whether kind k defines the flag name (not another
// kind's flag, which cv and tune define to refuse it).
func kindHasFlag(k *registry.Kind, name string) bool {
	kfs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	k.Flags(kfs)
	return kfs.Lookup(name) != nil
}

// splitCores returns the fits to run at once and the goroutines of each
// for folds fits of a kind whose --jobs is jobs ("0": every core).
func splitCores(jobs string, folds int) (workers, perFit int) {
	p, _ := strconv.Atoi(jobs)
	if p <= 0 {
		p = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(folds, p))
	return workers, max(1, p/workers)
}

// runSequences searches the settings of a kind of sentences by
// cross-validation on the sentences of --data (cv.Search.RunSequences),
// the cores shared between the folds and the fits as cv shares them, and
// writes the chosen setting's model, fitted to all the sentences with the
// --jobs given.
func (o *tuneOptions) runSequences(env *Env, s *cv.Search, k int) error {
	if err := o.checkSentences(); err != nil {
		return err
	}
	c, err := env.readSentences(o.train.data, &o.train.seq)
	if err != nil {
		return err
	}
	folds, err := o.assignSentences(c, k)
	if err != nil {
		return err
	}
	base := s.Base
	if kindHasFlag(s.Kind, "jobs") {
		given := "0"
		for _, fv := range base {
			if fv.Name == "jobs" {
				given = fv.Value
			}
		}
		var perFit int
		s.Workers, perFit = splitCores(given, maxFolds(folds))
		s.Base = append(append(cv.Setting{}, base...), cv.FlagValue{Name: "jobs", Value: strconv.Itoa(perFit)})
	}
	show := env.progress()
	s.Progress = func(done, total int) { show("tune: %d of %d fits", done, total) }
	res, err := s.RunSequences(c, folds...)
	show("")
	if err != nil {
		return err
	}
	if err := o.report(env, res); err != nil {
		return err
	}
	s.Base = base
	m, err := s.FitSequences(res, c)
	if err != nil {
		return err
	}
	return o.write(env, m, folds[0])
}

// report writes what tune says of the search res: the warnings of its
// settings (warnTrials), and the table of the settings on standard error
// or, with --json, the search's JSON on standard output.
func (o *tuneOptions) report(env *Env, res *cv.SearchResult) error {
	warnTrials(env, res.Trials)
	if o.json {
		return writeJSON(env.Stdout, res)
	}
	return res.Text(env.Stderr)
}
