package cli

import (
	"maps"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// checkRows is what predict and eval do with the data of a model beyond
// predicting, by the model's capabilities: report a cell that is not a
// count the model can score as an error (checkCounts); under --verbose,
// note the words of text columns that the model's vocabulary does not
// have (ignored); and report a row that no class can produce (naive Bayes
// with α = 0) as an error.
func checkRows(env *Env, m gendisc.Model, d *data.Dataset) error {
	if err := checkCounts(m, d); err != nil {
		return err
	}
	if u, ok := m.(unseenWordCounter); ok && env.Verbose {
		unseen := u.UnseenWords(d)
		for _, name := range slices.Sorted(maps.Keys(unseen)) {
			env.verbosef("%s: column %q: %s not in the model's vocabulary, ignored", d.Source, name, count(unseen[name], "word", "words"))
		}
	}
	if c, ok := m.(gendisc.ImpossibleChecker); ok {
		return c.Impossible(d)
	}
	return nil
}

// unseenWordCounter is a model with a vocabulary of its text columns:
// UnseenWords returns, per text column of d (by name), how many words of
// its documents the vocabulary lacks, which the model ignores.
type unseenWordCounter interface {
	UnseenWords(d *data.Dataset) map[string]int
}

// checkCounts reports a cell of d that is not a count the model can score
// (a negative one, for multinomial and complement naive Bayes) as an
// error, as fit does; score calls it too (a row no class can produce is a
// log-density of −Inf there, not an error).
func checkCounts(m gendisc.Model, d *data.Dataset) error {
	if c, ok := m.(gendisc.CountChecker); ok {
		return c.CheckCounts(d)
	}
	return nil
}

// warnModel prints the warnings of a fitted model that has any.
func warnModel(env *Env, m gendisc.Model) {
	if w, ok := m.(gendisc.Warner); ok {
		for _, s := range w.Warnings() {
			env.warnf("%s", s)
		}
	}
}
