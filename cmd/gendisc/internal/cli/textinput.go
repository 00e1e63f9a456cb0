package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/registry"
)

// readTraining reads the training data named by --data for the kind k:
// as readText does for a kind of plain text (registry.Text), else as a
// table.
func readTraining(env *Env, k *registry.Kind, name string, opt dataio.Options) (*data.Dataset, error) {
	if k.Input == registry.Text {
		return readText(env, name, opt)
	}
	return env.readData(name, opt)
}

// checkPlainText returns the error for a plain text file that was read
// as a table for a kind of plain text (fit --stream and update read CSV
// chunks).
func checkPlainText(d *data.Dataset) error {
	if s := d.Schema; strings.HasSuffix(d.Source.Name, ".txt") && (s.Target != nil || len(s.Features) != 1 || s.Features[0].Name != "text") {
		return fmt.Errorf("%s: plain text is read whole: fit it without --stream, and update a model with text in a table", d.Source)
	}
	return nil
}

// readText reads the text of a kind of plain text (a language model): a plain text file
// (.txt, or the bundled corpus tinyshakespeare) with one document per
// line, blank lines kept as empty documents for --paragraphs; or a table
// (a CSV file, a bundled data set or the corpus shakespeare_speeches),
// whose only column, when it has one, is the text without a target.
func readText(env *Env, name string, opt dataio.Options) (*data.Dataset, error) {
	r, source, isText, err := openText(env, name)
	if err != nil {
		return nil, err
	}
	if r == nil {
		d, err := env.readData(name, opt)
		if err == nil && d.D() == 0 && opt.Target == "" && name != "-" {
			opt.NoTarget = true // a single column: the text
			return env.readData(name, opt)
		}
		return d, err
	}
	defer r.Close()
	opt.Limits = env.limits
	if !isText {
		return dataio.Read(r, source, opt)
	}
	if opt.Target != "" {
		return nil, usagef("--target %s: %s is plain text, without columns", opt.Target, source)
	}
	return dataio.ReadLines(r, source, env.limits)
}

// plainText reports whether --data names plain text, which the language
// model reads whole: a file whose name ends in .txt, or a bundled text
// corpus.
func plainText(name string) bool {
	c, ok := datasets.CorpusInfo(name)
	return strings.HasSuffix(name, ".txt") || ok && strings.HasSuffix(c.File, ".txt")
}

// openText opens what --data names when it is plain text (a file whose
// name ends in .txt, or a bundled text corpus) or a bundled corpus in CSV;
// r is nil for anything else.
func openText(env *Env, name string) (r io.ReadCloser, source string, isText bool, err error) {
	if strings.HasSuffix(name, ".txt") {
		if name == "-" {
			return io.NopCloser(env.Stdin), "<stdin>", true, nil
		}
		f, err := os.Open(name)
		return f, name, true, err
	}
	if _, err := os.Stat(name); name == "-" || !errors.Is(err, fs.ErrNotExist) {
		return nil, "", false, nil
	}
	c, ok := datasets.CorpusInfo(name)
	if !ok {
		return nil, "", false, nil
	}
	r, err = datasets.OpenCorpus(name)
	return r, name, strings.HasSuffix(c.File, ".txt"), err
}

// readLMData reads the documents that score and eval apply a language
// model to: plain text as readText reads it, else with the model's
// schema.
func readLMData(env *Env, name string, m gendisc.LanguageModel, opt dataio.SchemaOptions) (*data.Dataset, error) {
	r, source, isText, err := openText(env, name)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return env.readWithSchema(name, m.Schema(), opt)
	}
	defer r.Close()
	opt.Limits = env.limits
	if !isText {
		return dataio.ReadWithSchema(r, source, m.Schema(), opt)
	}
	if opt.RequireTarget && m.Schema().Target != nil {
		return nil, fmt.Errorf("%s: plain text has no class column %q", source, m.Schema().Target.Name)
	}
	d, err := dataio.ReadLines(r, source, env.limits)
	if err != nil {
		return nil, err
	}
	if len(m.Schema().Features) != 1 {
		return nil, fmt.Errorf("%s: plain text has no column %q for the model", source, m.Schema().Features[m.Column()].Name)
	}
	d.Schema = m.Schema()
	return d, nil
}
