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
// sentences of --data are read one at a time (seqio.Feed) and added to
// the accumulator in batches of about streamBatchTokens tokens, so that
// the memory is that of the counts (the model) and of a batch, whatever
// the size of the data; one sentence may take at most --max-record bytes.
// The model is the one fit gives on all the sentences at once, bit for
// bit (the counts are whole numbers). A configuration that is not fitted
// in one pass (hmm's --em) is refused by newAcc, a misuse.
func (o *fitOptions) fitSequenceStream(env *Env) (gendisc.Model, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
	acc, err := o.newAcc()
	if err != nil {
		return nil, err
	}
	sa, ok := acc.(gendisc.SequenceAccumulator)
	if !ok {
		return nil, fmt.Errorf("model kind %s reads sentences, but its accumulator does not take them (gendisc.SequenceAccumulator)", o.kind.Name)
	}
	r, source, err := env.openSentences(o.data)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in, size := counted(r)
	bar, start := env.progress(), time.Now()
	added := 0
	sentences, tokens, err := seqio.Feed(in, source, env.seqOptions(&o.seq), streamBatchTokens, func(batch []seq.Sentence) error {
		if err := sa.AddSentences(batch); err != nil {
			return err
		}
		added += len(batch)
		bar("%s", streamStatus(source, in.n, size, time.Since(start), count(added, "sentence", "sentences")))
		return nil
	})
	bar("")
	if err != nil {
		return nil, err
	}
	if sentences == 0 {
		return nil, fmt.Errorf("%s: no sentences", source)
	}
	env.verbosef("%s: %d sentences, %d tokens, read in batches", source, sentences, tokens)
	return acc.Model()
}
