package cli

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/cv"
	"github.com/gendisc/gendisc/seqio"
)

// predict --tagged writes the sentences of --data back in their own
// format with the predicted tags in the tag field (seqio.Retag): CoNLL-U
// with the field of --tags replaced, everything else untouched; columns
// with the tag column (--tag-column, else the last) replaced, or one
// appended to untagged lines; JSON lines with "tags"; CRFsuite's format
// with the labels. It is the default when --out names a file of a
// sequence format by its extension (.conllu, .conll, .iob, .bio, .txt,
// .crfsuite, optionally .gz or .zst), which the rows of predict cannot
// be written to; for .jsonl, a format of rows too, --tagged is needed.
// The output's format is the input's: an --out of another sequence format
// is a misuse, as are --format and --marginals (rows) with it.

// taggedOut reports whether predict writes tagged sentences: --tagged,
// or an --out of a sequence format that is not one of rows.
func (o *predictOptions) taggedOut() bool {
	if o.tagged {
		return true
	}
	f := seqio.FormatOf(o.out)
	return f != seqio.Auto && f != seqio.JSONLines
}

// runTagged runs predict --tagged; format is the value of --format.
func (o *predictOptions) runTagged(env *Env, format string) error {
	switch {
	case o.marginals:
		return usagef("--marginals writes rows of probabilities: not with tagged sentences (--tagged, or --out %s)", o.out)
	case format != "":
		return usagef("--format %s is of rows: tagged sentences are written in the format of --data", format)
	}
	_, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	t, ok := m.(gendisc.Tagger)
	if !ok && !o.tagged {
		if _, err := outputFormat(o.out, format); err != nil {
			return err // rows to a file of an unknown extension, as predict of rows says
		}
	}
	if !ok {
		return usagef("--tagged writes tagged sentences: %s is a %s model, not a tagger", o.model, m.Kind())
	}
	raw, source, err := env.readAllSentences(o.data)
	if err != nil {
		return err
	}
	inFormat, err := seqio.FormatOfData(bytes.NewReader(raw), source, o.seq.options())
	if err != nil {
		return err
	}
	if f := seqio.FormatOf(o.out); f != seqio.Auto && f != inFormat {
		return usagef("--out %s: tagged sentences are written in the format of --data, %v, not %v", o.out, inFormat, f)
	}
	c, err := env.readCorpus(bytes.NewReader(raw), source, &o.seq)
	if err != nil {
		return err
	}
	if _, err := newSentenceTagger(o.model, t, c); err != nil {
		return err
	}
	pred, err := cv.TagSentences(t, c)
	if err != nil {
		return err
	}
	out, err := env.createSequences(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := seqio.Retag(out, bytes.NewReader(raw), source, o.seq.options(), pred); err != nil {
		return err
	}
	return out.Commit()
}

// readAllSentences returns the bytes of what --data names (openSentences),
// to be read twice, and its name.
func (env *Env) readAllSentences(name string) ([]byte, string, error) {
	r, source, err := env.openSentences(name)
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, "", pathError(source, err)
	}
	return raw, source, nil
}

// createSequences opens an output for a file of sequence data, "-" for
// standard output, compressed by gzip or zstd when path ends in .gz or
// .zst.
func (env *Env) createSequences(path string) (*output, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".bz2" || ext == ".xz" {
		return nil, usagef("%s: gendisc writes sequence data plain or compressed as .gz or .zst, not %s", path, ext)
	}
	out, err := env.create(path)
	if err != nil {
		return nil, err
	}
	if c, ok := rowCompressions[ext]; ok && path != "-" {
		out.format.compression = c
	}
	return out, nil
}
