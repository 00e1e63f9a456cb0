package cv

import (
	"strings"
	"testing"

	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/registry"
)

// TestSearchSequences searches the HMM's emission pseudo-count by the
// token error: every setting's mean and SE are those of its own
// cross-validation, the best is the least error, and the one-SE choice
// the largest pseudo-count within one SE of it.
func TestSearchSequences(t *testing.T) {
	c := ewt(t, 300)
	k, _ := registry.Lookup(hmm.Kind)
	folds, _ := SentenceFolds(len(c.Sentences), 5, 3)
	m, err := MetricNamed(k, "error")
	if err != nil {
		t.Fatal(err)
	}
	if ms := Metrics(k); ms[0].Name != "error" {
		t.Errorf("default metric of a tagger %q, want error", ms[0].Name)
	}
	values := []string{"0", "0.001", "0.1", "10"}
	s := &Search{Kind: k, Base: Setting{{"order", "1"}}, Params: []Param{{Name: "emission-alpha", Values: values}}, Metric: m}
	res, err := s.RunSequences(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	best := -1
	for i, v := range values {
		r, err := (&SequenceRunner{Config: sequenceConfig(t, hmm.Kind, "order=1", "emission-alpha="+v)}).Run(c, folds)
		if err != nil {
			t.Fatal(err)
		}
		mean, se, _ := r.Metric("error")
		tr := res.Trials[i]
		if tr.Mean != mean || tr.SE != se {
			t.Errorf("emission-alpha=%s: %v ± %v, its own cross-validation %v ± %v", v, tr.Mean, tr.SE, mean, se)
		}
		if best < 0 || mean < res.Trials[best].Mean {
			best = i
		}
	}
	if res.Best != best || res.Chosen != best {
		t.Errorf("best %d, chosen %d, want %d", res.Best, res.Chosen, best)
	}
	s.OneSE = true
	res, err = s.RunSequences(c, folds)
	if err != nil {
		t.Fatal(err)
	}
	want := best
	bound := res.Trials[best].Mean + res.Trials[best].SE
	for i := range values {
		if res.Trials[i].Mean <= bound {
			want = max(want, i) // the values are increasing
		}
	}
	if res.Chosen != want {
		t.Errorf("one-SE choice %d (%v), want %d: errors %v, bound %v", res.Chosen, res.Trials[res.Chosen].Setting, want, trialMeans(res), bound)
	}
	model, err := s.FitSequences(res, c)
	if err != nil || model.Kind() != hmm.Kind {
		t.Errorf("fitting the chosen setting: %v, %v", model, err)
	}
}

func trialMeans(r *SearchResult) []float64 {
	out := make([]float64, len(r.Trials))
	for i, t := range r.Trials {
		out[i] = t.Mean
	}
	return out
}

// TestSearchSequencesBadValue checks that a grid value out of the flag's
// range is a one-line error naming the setting and the flag, before any
// fit.
func TestSearchSequencesBadValue(t *testing.T) {
	c := ewt(t, 20)
	k, _ := registry.Lookup(hmm.Kind)
	m, _ := MetricNamed(k, "error")
	folds, _ := SentenceFolds(len(c.Sentences), 2, 1)
	for _, p := range []Param{{Name: "emission-alpha", Values: []string{"0.1", "-1"}}, {Name: "order", Values: []string{"1", "3"}}} {
		s := &Search{Kind: k, Params: []Param{p}, Metric: m}
		_, err := s.RunSequences(c, folds)
		bad := p.Name + " \"" + p.Values[1] + "\""
		if err == nil || !strings.Contains(err.Error(), "setting "+p.Name+"="+p.Values[1]) || !strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want the setting and %s named", p.Name, err, bad)
		}
	}
	if _, err := MetricNamed(k, "log-loss"); err == nil || !strings.Contains(err.Error(), "error, sentence-accuracy") {
		t.Errorf("a table metric for a tagger: %v", err)
	}
}
