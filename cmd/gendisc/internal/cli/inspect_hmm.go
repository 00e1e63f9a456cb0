package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gendisc/gendisc/hmm"
)

// hmmReport is what inspect shows of a hidden Markov model tagger: its
// settings, the interpolation weights of its transitions, the counted
// first-order transitions between tags, the most likely words of each
// tag and the suffix model's θ and most frequent suffixes.
type hmmReport struct {
	Order          int       `json:"order"`
	Transitions    string    `json:"transitions"`
	Alpha          float64   `json:"alpha,omitempty"`
	EmissionAlpha  float64   `json:"emission_alpha"`
	Unknown        string    `json:"unknown"`
	Capitalization bool      `json:"capitalization"`
	Context        float64   `json:"context,omitempty"` // κ, 0 without context emissions
	End            bool      `json:"end"`
	Beam           float64   `json:"beam,omitempty"` // 0 without a beam
	States         int       `json:"states"`
	Vocabulary     int       `json:"vocabulary"`
	Lambdas        []float64 `json:"lambdas,omitempty"`
	// TransitionTags label the rows (previous tag, the last being the
	// start) and columns (next tag, the last being the end) of
	// TagTransitions.
	TransitionTags []string         `json:"transition_tags"`
	TagTransitions [][]float64      `json:"tag_transitions"`
	TopWords       []hmmTagWords    `json:"top_words"`
	SuffixThetas   []hmmSuffixTheta `json:"suffix_thetas,omitempty"`
	TopSuffixes    []hmmSuffix      `json:"top_suffixes,omitempty"`
}

type hmmTagWords struct {
	Tag   string        `json:"tag"`
	Words []hmmWordProb `json:"words"`
}

type hmmWordProb struct {
	Word string  `json:"word"`
	P    float64 `json:"p"`
}

// hmmSuffixTheta is θ of the suffix model of a class of words
// (hmm.WordClasses).
type hmmSuffixTheta struct {
	Class string  `json:"class"`
	Theta float64 `json:"theta"`
}

// hmmSuffix is an entry of the suffix model (hmm.SuffixEntry).
type hmmSuffix struct {
	Class  string  `json:"class"`
	Suffix string  `json:"suffix"`
	Count  float64 `json:"tokens"`
	Tag    string  `json:"tag"`
	P      float64 `json:"p"`
}

// inspectWordsPerTag is how many words inspect shows of each tag,
// inspectSuffixes how many suffixes of inspectSuffixLetters letters.
const inspectWordsPerTag, inspectSuffixes, inspectSuffixLetters = 5, 10, 3

func inspectHMM(m *hmm.Model) report {
	c := m.Config()
	r := &hmmReport{Order: c.Order, Transitions: c.Transitions.String(), EmissionAlpha: c.EmissionAlpha, Unknown: c.Unknown.String(),
		Capitalization: !c.NoCapitalization, End: !c.NoEnd, States: m.T, Vocabulary: len(m.SeqSchema().Words), Lambdas: m.Lambdas(),
		TransitionTags: append(m.Tags(), hmm.Boundary), TagTransitions: m.TagTransitions()}
	if c.Transitions == hmm.AddAlpha {
		r.Alpha = c.Alpha
	}
	if c.Order == 2 && c.Context != hmm.NoContext {
		r.Context = c.Context
	}
	if c.Order == 2 && c.Beam != hmm.NoBeam {
		r.Beam = c.Beam
	}
	for _, tag := range m.Tags() {
		tw := hmmTagWords{Tag: tag}
		for _, wp := range m.TopWords(tag, inspectWordsPerTag) {
			tw.Words = append(tw.Words, hmmWordProb(wp))
		}
		r.TopWords = append(r.TopWords, tw)
	}
	for i, th := range m.SuffixThetas() {
		r.SuffixThetas = append(r.SuffixThetas, hmmSuffixTheta{hmm.WordClasses[i], th})
	}
	for _, e := range m.TopSuffixes(inspectSuffixes, inspectSuffixLetters) {
		r.TopSuffixes = append(r.TopSuffixes, hmmSuffix(e))
	}
	return r
}

func (r *hmmReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "order: %d\ntransitions: %s", r.Order, r.Transitions)
	if r.Transitions == hmm.AddAlpha.String() {
		fmt.Fprintf(w, " (α = %s)", num(r.Alpha))
	}
	if r.Lambdas != nil {
		fmt.Fprintf(w, " (λ = %s)", joinNums(r.Lambdas))
	}
	fmt.Fprintf(w, "\nemissions: add-α %s; unknown words: %s\n", num(r.EmissionAlpha), r.Unknown)
	fmt.Fprintf(w, "capitalisation states: %v; end of sentence: %v", r.Capitalization, r.End)
	if r.Context > 0 {
		fmt.Fprintf(w, "; context emissions κ = %s", num(r.Context))
	}
	if r.Beam > 0 {
		fmt.Fprintf(w, "; beam %s", num(r.Beam))
	}
	fmt.Fprintf(w, "\nstates: %d; vocabulary: %d words\n", r.States, r.Vocabulary)

	fmt.Fprintf(w, "\ntransitions P(next | previous), counted (rows: previous tag, %s the start; columns: next tag, %[1]s the end):\n", hmm.Boundary)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(r.TransitionTags, "\t"))
	for i, row := range r.TagTransitions {
		fmt.Fprintf(tw, "%s", r.TransitionTags[i])
		for _, p := range row {
			fmt.Fprintf(tw, "\t%.3f", p)
		}
		fmt.Fprintln(tw, "\t")
	}
	tw.Flush()

	fmt.Fprintf(w, "\nmost likely words per tag, P(word | tag):\n")
	for _, tw := range r.TopWords {
		parts := make([]string, len(tw.Words))
		for i, wp := range tw.Words {
			parts[i] = fmt.Sprintf("%s %.3f", wp.Word, wp.P)
		}
		fmt.Fprintf(w, "  %s: %s\n", tw.Tag, strings.Join(parts, ", "))
	}
	if r.SuffixThetas != nil {
		fmt.Fprintf(w, "\nsuffix model θ by word class:")
		for _, th := range r.SuffixThetas {
			fmt.Fprintf(w, " %s %s;", th.Class, num(th.Theta))
		}
		fmt.Fprintf(w, "\nmost frequent suffixes of %d letters among the rare words (class, suffix, tokens, most frequent tag and its share):\n", inspectSuffixLetters)
		for _, e := range r.TopSuffixes {
			fmt.Fprintf(w, "  %s -%s: %s, %s %.3f\n", e.Class, e.Suffix, num(e.Count), e.Tag, e.P)
		}
	}
	return nil
}

// joinNums writes numbers as num does, comma-separated.
func joinNums(x []float64) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = num(v)
	}
	return strings.Join(parts, ", ")
}
