package seqio

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/gendisc/gendisc/seq"
)

// Sentences returns the sentences of r one at a time, as Read reads them
// (the same formats, sentences and errors), in memory that does not grow
// with the file: the sentence being read (at most
// opt.Limits.MaxRecord bytes of lines), the buffers of the reading and,
// in CoNLL-U, one string for each distinct word and tag met, which the
// sentences share. A sentence is the caller's to keep; the reader keeps
// none. An error ends the sequence, after the sentences before it.
func Sentences(r io.Reader, source string, opt Options) iter.Seq2[seq.Sentence, error] {
	return func(yield func(seq.Sentence, error) bool) {
		err := scan(r, source, opt, func(s seq.Sentence) bool { return yield(s, nil) })
		if err != nil && err != errStopped {
			yield(seq.Sentence{}, err)
		}
	}
}

// errStopped is what the readers of the formats return when their
// yield returns false.
var errStopped = errors.New("seqio: stopped by the caller")

// scan reads the sentences of r as Read does, giving each to yield, and
// returns the error that ended the reading (errStopped when yield
// returned false, nil at the end of r).
func scan(r io.Reader, source string, opt Options, yield func(seq.Sentence) bool) error {
	in, err := open(r, source, opt)
	if err != nil {
		return err
	}
	defer in.close()
	switch in.format {
	case CoNLLU:
		return readCoNLLU(in.lr, in.field, yield)
	case Columns:
		return readColumns(in.lr, opt.TagColumn, yield)
	case JSONLines:
		return readJSONLines(in.lr, yield)
	case CRFsuite:
		return readCRFsuite(in.lr, yield)
	}
	return fmt.Errorf("%s: unknown sequence format %v", source, in.format)
}

// BatchTokens is the default number of tokens, about, that Feed gives its
// add at a time: a batch holds little memory (its sentences, some MB),
// and an accumulator's cost of a call is shared by many sentences.
const BatchTokens = 1 << 16

// Feed reads the sentences of r as Sentences does and gives them to add
// in batches of about batchTokens tokens (BatchTokens when it is not
// positive: a batch ends with the sentence that reaches the number), in
// the order of the file; it
// returns the numbers of sentences and tokens given. add is an
// accumulator's AddSentences, which adds nothing when it refuses one
// sentence of a batch: Feed then gives it the batch's sentences one at a
// time to find the one refused, and returns its error named by the
// file, the sentence's line and its number in the file:
// "source:line: sentence n: cause", the cause being add's error of the
// sentence alone without a prefix of its own ("sentence 1 (line 7): ",
// as hmm's accumulator names the sentence) when it wraps the cause after
// one.
func Feed(r io.Reader, source string, opt Options, batchTokens int, add func([]seq.Sentence) error) (sentences, tokens int, err error) {
	if batchTokens <= 0 {
		batchTokens = BatchTokens
	}
	var batch []seq.Sentence
	inBatch := 0 // tokens
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := add(batch); err != nil {
			return refused(source, batch, sentences-len(batch), add, err)
		}
		clear(batch) // the batch's array holds no sentence once they are added
		batch, inBatch = batch[:0], 0
		return nil
	}
	for s, err := range Sentences(r, source, opt) {
		if err != nil {
			return sentences, tokens, err
		}
		batch = append(batch, s)
		sentences, tokens, inBatch = sentences+1, tokens+len(s.Tokens), inBatch+len(s.Tokens)
		if inBatch >= batchTokens {
			if err := flush(); err != nil {
				return sentences, tokens, err
			}
		}
	}
	return sentences, tokens, flush()
}

// refused returns the error of the sentence of batch that add refuses,
// err being add's refusal of the whole batch, whose first sentence is
// the (before+1)-th of source: each sentence is given to add alone
// (adding those before the refused one, as the fit fails anyway).
func refused(source string, batch []seq.Sentence, before int, add func([]seq.Sentence) error, err error) error {
	for i, s := range batch {
		e := add(batch[i : i+1])
		if e == nil {
			continue
		}
		if cause := errors.Unwrap(e); cause != nil && strings.HasSuffix(e.Error(), ": "+cause.Error()) {
			e = cause // add's own name of the sentence left out
		}
		return fmt.Errorf("%s:%d: sentence %d: %w", source, s.Line, before+i+1, e)
	}
	return fmt.Errorf("%s: %w", source, err) // refused in a batch only (such as too many tags together)
}
