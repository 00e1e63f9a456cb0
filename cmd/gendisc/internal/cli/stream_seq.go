package cli

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// streamBatchTokens is about the number of tokens that fit --stream adds
// to an accumulator of sentences at a time; tests make it small.
var streamBatchTokens = seqio.BatchTokens

// fitSequenceStream fits a one-pass kind of sentences (registry.Sequences,
// its accumulator a gendisc.SequenceAccumulator) with fit --stream: the
// sentences of --data are added to an empty accumulator by
// feedSentences, in memory of the counts (the model) and of a batch,
// whatever the size of the data, and the model is the one fit gives on
// all the sentences at once, bit for bit (the counts are whole numbers).
// A configuration that is not fitted in one pass (hmm's --em) is refused
// by newAcc, a misuse.
func (o *fitOptions) fitSequenceStream(env *Env) (gendisc.Model, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
	acc, err := o.newAcc()
	if err != nil {
		return nil, err
	}
	if err := env.feedSentences(o.data, &o.seq, acc, env.progress()); err != nil {
		return nil, err
	}
	return acc.Model()
}

// feedSentences reads the sentences that name names (as readSentences
// does) one at a time with seqio.Feed and adds them to acc, the
// accumulator of a sequence kind (gendisc.SequenceAccumulator), in
// batches of about streamBatchTokens tokens, one sentence taking at most
// --max-record bytes; bar shows the progress (fit --stream's line).
// Data without sentences is an error.
func (env *Env) feedSentences(name string, f *seqFlags, acc gendisc.Accumulator, bar func(format string, args ...any)) error {
	sa, ok := acc.(gendisc.SequenceAccumulator)
	if !ok {
		return fmt.Errorf("%s: the model's statistics are of table rows, not of sentences", name)
	}
	r, source, err := env.openSentences(name)
	if err != nil {
		return err
	}
	defer r.Close()
	in, size := counted(r)
	start, added := time.Now(), 0
	sentences, tokens, err := seqio.Feed(in, source, env.seqOptions(f), streamBatchTokens, func(batch []seq.Sentence) error {
		if len(batch) > 0 && batch[0].Attributes != nil {
			return fmt.Errorf("%s: sentences given as attributes (CRFsuite's data format), but the model counts words", source)
		}
		if err := sa.AddSentences(batch); err != nil {
			return err
		}
		added += len(batch)
		bar("%s", streamStatus(source, in.n.Load(), size, time.Since(start), count(added, "sentence", "sentences")))
		return nil
	})
	bar("")
	if err != nil {
		return err
	}
	if sentences == 0 {
		return fmt.Errorf("%s: no sentences", source)
	}
	env.verbosef("%s: %d sentences, %d tokens, read in batches", source, sentences, tokens)
	return nil
}
