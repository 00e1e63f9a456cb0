package cv

import (
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// RunSequences is Run for a kind of sentences (registry.Sequences): every
// setting is cross-validated on the tagged sentences of c with the same
// fold assignments repeats (SentenceFolds, checked once by
// CheckSentenceFolds) by a SequenceRunner of the setting's configuration,
// which adds the span figures when the metric is span-f1, and the best by
// Metric chosen, or with OneSE the most regularised within one standard
// error of the best (see mostRegularised: larger values of c2, c1 and
// min-freq regularise a CRF, of alpha, emission-alpha and theta-factor
// an HMM). Every setting's configuration is checked before any is
// fitted.
func (s *Search) RunSequences(c *seq.Corpus, repeats ...Folds) (*SearchResult, error) {
	settings, err := s.Settings()
	if err != nil {
		return nil, err
	}
	if s.Metric.Name == "" {
		return nil, errors.New("cv: no metric to search by")
	}
	configs := make([]registry.SequenceConfig, len(settings))
	for i, set := range settings {
		cfg, err := Config(s.Kind, s.Base, set)
		if err != nil {
			return nil, err
		}
		sc, ok := cfg.(registry.SequenceConfig)
		if !ok {
			return nil, fmt.Errorf("cv: a %s model is not fitted on sentences", s.Kind.Name)
		}
		configs[i] = sc
	}
	if len(repeats) == 0 {
		return nil, errors.New("cv: no fold assignment")
	}
	folds := 0
	for rep, f := range repeats {
		if err := CheckSentenceFolds(f, len(c.Sentences)); err != nil {
			return nil, (&Runner{}).inRepeat(rep, len(repeats), err)
		}
		folds += f.K()
	}
	res := &SearchResult{Trials: make([]Trial, len(settings)), Metric: s.Metric}
	for i, sc := range configs {
		r := &SequenceRunner{Config: sc, Spans: spansMetric(s.Metric), Workers: s.Workers}
		if s.Progress != nil {
			r.Progress = func(done, _ int) { s.Progress(i*folds+done, len(configs)*folds) }
		}
		t := Trial{Setting: settings[i], Mean: math.NaN(), SE: math.NaN()}
		t.Result, t.Err = r.Run(c, repeats...)
		if t.Err != nil {
			t.Err = fmt.Errorf("cv: setting %s: %w", settings[i], t.Err)
			if !s.SkipFailed {
				return nil, t.Err
			}
			t.Result = nil
		} else if mean, se, ok := t.Result.Metric(s.Metric.Path...); ok {
			t.Mean, t.SE = mean, se
		}
		res.Trials[i] = t
	}
	return s.choose(res)
}

// FitSequences fits the chosen setting of s, as its result r chose it,
// to all the sentences of c.
func (s *Search) FitSequences(r *SearchResult, c *seq.Corpus) (gendisc.Model, error) {
	cfg, err := Config(s.Kind, s.Base, r.Trials[r.Chosen].Setting)
	if err != nil {
		return nil, err
	}
	sc, ok := cfg.(registry.SequenceConfig)
	if !ok {
		return nil, fmt.Errorf("cv: a %s model is not fitted on sentences", s.Kind.Name)
	}
	return sc.FitSequences(c, nil)
}

// choose sets the best setting of res, the trials of s, and the chosen
// one: the best, or with s.OneSE the most regularised within one
// standard error of it (mostRegularised). It returns res, or an error
// when no trial has the metric.
func (s *Search) choose(res *SearchResult) (*SearchResult, error) {
	res.Best = -1
	for i, t := range res.Trials {
		if !math.IsNaN(t.Mean) && (res.Best < 0 || s.Metric.better(t.Mean, res.Trials[res.Best].Mean)) {
			res.Best = i
		}
	}
	if res.Best < 0 {
		return nil, fmt.Errorf("cv: no setting has a %s on any fold", s.Metric.Name)
	}
	res.Chosen = res.Best
	if s.OneSE {
		res.Chosen = res.mostRegularised()
	}
	return res, nil
}
