package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc/crf"
)

// crfReport is what inspect shows of a linear-chain CRF tagger: its
// feature templates (none for a model trained on given attributes, CRFsuite's data format), the
// numbers of features and iterations, the transition weights λ(y′, y) of
// largest magnitude and, for each tag, the state weights μ(attribute, tag)
// of largest magnitude.
type crfReport struct {
	Templates   string         `json:"templates,omitempty"`
	Buckets     int            `json:"hash_buckets,omitempty"`
	Features    int            `json:"features"`
	Iterations  int            `json:"iterations"`
	Transitions []crfWeight    `json:"top_transitions"`
	States      []crfTagStates `json:"top_states"`
}

// crfWeight is a transition weight (From, To) or a state weight
// (Attribute).
type crfWeight struct {
	From      string  `json:"from,omitempty"`
	To        string  `json:"to,omitempty"`
	Attribute string  `json:"attribute,omitempty"`
	Weight    float64 `json:"weight"`
}

type crfTagStates struct {
	Tag     string      `json:"tag"`
	Weights []crfWeight `json:"weights"`
}

// inspectCRFTransitions is how many transition weights inspect shows,
// inspectCRFStates how many state weights of each tag.
const inspectCRFTransitions, inspectCRFStates = 20, 10

func inspectCRF(m *crf.Model) report {
	r := &crfReport{Features: m.NumFeatures(), Iterations: m.Iterations()}
	if tp := m.Templates(); tp != nil {
		r.Templates, r.Buckets = tp.String(), tp.Buckets
	}
	for _, w := range m.TopTransitions(inspectCRFTransitions) {
		r.Transitions = append(r.Transitions, crfWeight{From: w.From, To: w.To, Weight: w.Value})
	}
	for _, tag := range m.Tags() {
		ts := crfTagStates{Tag: tag, Weights: []crfWeight{}}
		for _, w := range m.TopStates(tag, inspectCRFStates) {
			ts.Weights = append(ts.Weights, crfWeight{Attribute: w.Attribute, Weight: w.Value})
		}
		r.States = append(r.States, ts)
	}
	return r
}

func (r *crfReport) writeText(w io.Writer) error {
	if r.Templates != "" {
		fmt.Fprintf(w, "feature templates: %s", r.Templates)
		if r.Buckets > 0 {
			fmt.Fprintf(w, " (hashed into %d buckets)", r.Buckets)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "feature templates: none (trained on given attributes, CRFsuite's data format)")
	}
	fmt.Fprintf(w, "features: %d; iterations: %d\n", r.Features, r.Iterations)
	fmt.Fprintf(w, "\nlargest transition weights λ(previous → next):\n")
	for _, t := range r.Transitions {
		fmt.Fprintf(w, "  %s → %s  %+.4f\n", t.From, t.To, t.Weight)
	}
	fmt.Fprintf(w, "\nlargest state weights μ(attribute, tag) per tag:\n")
	for _, ts := range r.States {
		parts := make([]string, len(ts.Weights))
		for i, sw := range ts.Weights {
			parts[i] = fmt.Sprintf("%s %+.3f", sw.Attribute, sw.Weight)
		}
		fmt.Fprintf(w, "  %s: %s\n", ts.Tag, strings.Join(parts, ", "))
	}
	return nil
}
