package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

// nbTopTerms is the number of words per class inspect shows for a text
// column.
const nbTopTerms = 15

// nbReport is what inspect shows of a naive Bayes model of
// naivebayes.Config: the class priors and each family's parameters.
type nbReport struct {
	Kind  string  `json:"kind"`
	Alpha float64 `json:"alpha"`
	// Binarize is Bernoulli naive Bayes' threshold on numeric columns,
	// Norm complement naive Bayes' weight normalisation, TextModel mixed
	// naive Bayes' family of text columns.
	Binarize  *float64 `json:"binarize,omitempty"`
	Norm      *bool    `json:"norm,omitempty"`
	TextModel string   `json:"text_model,omitempty"`
	// VarSmoothing and Variance set mixed naive Bayes' Gaussian columns.
	VarSmoothing *float64            `json:"var_smoothing,omitempty"`
	Variance     naivebayes.Variance `json:"variance,omitempty"`
	priorSetting
	Classes      []string         `json:"classes"`
	Priors       modelfile.Floats `json:"priors"`
	ClassWeights modelfile.Floats `json:"class_weights"`
	// Gaussian: the numeric columns of mixed naive Bayes.
	Gaussian *nbGaussian `json:"gaussian,omitempty"`
	// Counts: the numeric (and binary) columns of Bernoulli,
	// multinomial and complement naive Bayes, weight b_kt per class.
	Counts      *nbCounts       `json:"counts,omitempty"`
	Categorical []nbCategorical `json:"categorical,omitempty"`
	Text        []nbText        `json:"text,omitempty"`
	Warnings    []string        `json:"warnings,omitempty"`
}

type nbGaussian struct {
	Features  []string           `json:"features"`
	Means     []modelfile.Floats `json:"means"`
	Variances []modelfile.Floats `json:"variances"`
}

type nbCounts struct {
	Features []string           `json:"features"`
	Weights  []modelfile.Floats `json:"weights"`
}

// nbCategorical holds θ_kjv as Probabilities[k][v].
type nbCategorical struct {
	Feature       string             `json:"feature"`
	Levels        []string           `json:"levels"`
	Probabilities []modelfile.Floats `json:"probabilities"`
}

// nbText holds, per class, the words with the largest log-ratio.
type nbText struct {
	Feature string `json:"feature"`
	// Config is how the column's documents became terms.
	Config     text.VectorizerConfig `json:"config"`
	Vocabulary int                   `json:"vocabulary"`
	Top        [][]nbTermRatio       `json:"top"`
}

type nbTermRatio struct {
	Term     string          `json:"term"`
	LogRatio modelfile.Float `json:"log_ratio"`
}

func inspectNB(m gendisc.Model) report {
	nb := m.(*naivebayes.Model)
	cfg := nb.Config()
	r := &nbReport{Kind: nb.Kind(), Alpha: max(cfg.Alpha, 0), Classes: nb.Classes(), Priors: nb.Priors(),
		ClassWeights: nb.ClassWeights(), Warnings: nb.Warnings(), priorSetting: priorSetting{cfg.PriorAlpha, cfg.ClassPrior}}
	switch cfg.Family {
	case naivebayes.Bernoulli:
		r.Binarize = &cfg.Binarize
	case naivebayes.Complement:
		r.Norm = &cfg.Norm
	}
	s := nb.Schema()
	if names, mean, variance := nb.GaussianFeatures(); names != nil {
		vs := max(cfg.VarSmoothing, 0) // NoVarSmoothing is 0
		r.VarSmoothing, r.Variance = &vs, cfg.Variance
		r.Gaussian = &nbGaussian{Features: names}
		for k := range mean {
			r.Gaussian.Means = append(r.Gaussian.Means, mean[k])
			r.Gaussian.Variances = append(r.Gaussian.Variances, variance[k])
		}
	}
	if names, w := nb.CountWeights(); names != nil {
		r.Counts = &nbCounts{Features: names}
		for _, v := range w {
			r.Counts.Weights = append(r.Counts.Weights, v)
		}
	}
	for _, name := range nb.CategoricalFeatures() {
		p, _ := nb.LevelProbabilities(name) // the model has the feature
		c := nbCategorical{Feature: name, Levels: s.Features[s.Feature(name)].Levels}
		for _, v := range p {
			c.Probabilities = append(c.Probabilities, v)
		}
		r.Categorical = append(r.Categorical, c)
	}
	for _, name := range nb.TextFeatures() {
		top, _ := nb.TopTerms(name, nbTopTerms) // the model has the feature
		v, _ := nb.Vocabulary(name)
		t := nbText{Feature: name, Config: v.Config(), Vocabulary: v.Len()}
		if cfg.Family == naivebayes.Mixed {
			r.TextModel = cfg.TextModel.String()
		}
		for _, terms := range top {
			var row []nbTermRatio
			for _, tw := range terms {
				row = append(row, nbTermRatio{tw.Term, modelfile.Float(tw.LogRatio)})
			}
			t.Top = append(t.Top, row)
		}
		r.Text = append(r.Text, t)
	}
	return r
}

// nbFormulas are the formulas inspect prints for each kind.
var nbFormulas = map[string]string{
	naivebayes.KindMixed:       "log p(x, y=k) = log π_k + Σ_j log p(x_j | y=k), each column by its type (missing cells left out)",
	naivebayes.KindBernoulli:   "log p(x, y=k) = log π_k + Σ_t [x_t log p_kt + (1 − x_t) log(1 − p_kt)],  p_kt = (N_kt + α)/(N_k + 2α)",
	naivebayes.KindMultinomial: "log p(x, y=k) = log π_k + Σ_t x_t log θ_kt,  θ_kt = (N_kt + α)/(N_k + α·V)",
	naivebayes.KindComplement:  "score_k(x) = Σ_t x_t w_kt,  w_kt = −log θ̃_kt,  θ̃_kt = (Σ_{l≠k} N_lt + α)/(Σ_{l≠k} N_l + α·V)  (no prior)",
	naivebayes.KindCategorical: "log p(x, y=k) = log π_k + Σ_j log θ_kj(x_j),  θ_kjv = (N_kjv + α)/(N_kj + α·L_j)",
}

func (r *nbReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "%s\n\n\t%s\n\n", r.Kind, nbFormulas[r.Kind])
	fmt.Fprintf(w, "alpha: %s\n", num(r.Alpha))
	if r.Binarize != nil {
		fmt.Fprintf(w, "binarize: a numeric x_t is present when x_t > %s\n", num(*r.Binarize))
	}
	if r.Norm != nil {
		fmt.Fprintf(w, "norm: %t (weights w_kt divided by Σ_t |w_kt|)\n", *r.Norm)
	}
	if r.VarSmoothing != nil {
		fmt.Fprintf(w, "Gaussian columns: variance tying %s, var-smoothing %s\n", r.Variance, num(*r.VarSmoothing))
	}
	if r.TextModel != "" {
		fmt.Fprintf(w, "text model: %s\n", r.TextModel)
	}
	if r.Kind != naivebayes.KindComplement { // its scores leave the prior out
		r.priorSetting.writeText(w)
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Classes))
	for k, c := range r.Classes {
		rows[k] = []string{c, num(r.Priors[k]), num(r.ClassWeights[k])}
	}
	if err := writeTable(w, []string{"class", "prior π_k", "weight"}, rows); err != nil {
		return err
	}
	byFeature := func(title string, features []string, v []modelfile.Floats) error {
		return writeByClass(w, title+" (rows: features, columns: classes)", "feature", features, r.Classes, v)
	}
	if g := r.Gaussian; g != nil {
		if err := byFeature("Gaussian means μ_kj", g.Features, g.Means); err != nil {
			return err
		}
		if err := byFeature("Gaussian variances σ²_kj", g.Features, g.Variances); err != nil {
			return err
		}
	}
	if c := r.Counts; c != nil {
		title := map[string]string{naivebayes.KindBernoulli: "log p_kt (present)", naivebayes.KindMultinomial: "log θ_kt", naivebayes.KindComplement: "complement weights w_kt"}[r.Kind]
		if err := byFeature(title, c.Features, c.Weights); err != nil {
			return err
		}
	}
	for _, c := range r.Categorical {
		if err := writeByClass(w, c.Feature+": P(value | class)", "value", c.Levels, r.Classes, c.Probabilities); err != nil {
			return err
		}
	}
	for _, t := range r.Text {
		fmt.Fprintf(w, "\n%s: %d words (%s); per class, the words with the largest log-ratio (the word's weight for the class minus its mean weight for the others)\n",
			t.Feature, t.Vocabulary, vectorizerText(t.Config))
		for k, c := range r.Classes {
			var parts []string
			for _, tr := range t.Top[k] {
				parts = append(parts, fmt.Sprintf("%s (%s)", tr.Term, num(float64(tr.LogRatio))))
			}
			fmt.Fprintf(w, "  %s: %s\n", c, strings.Join(parts, ", "))
		}
	}
	return nil
}

// vectorizerText says how a text column's documents became terms: the
// n-gram lengths, the stop list, the document-frequency bounds and the
// cap on the vocabulary.
func vectorizerText(c text.VectorizerConfig) string {
	ng := c.NGrams
	if ng.Min == 0 {
		ng = text.NGrams{Min: 1, Max: 1}
	}
	parts := []string{fmt.Sprintf("%d-grams", ng.Min)}
	if ng.Max != ng.Min {
		parts[0] = fmt.Sprintf("%d- to %d-grams", ng.Min, ng.Max)
	}
	if c.MinLen > 1 {
		parts = append(parts, fmt.Sprintf("tokens of at least %d characters", c.MinLen))
	}
	if c.StopWords != "" {
		parts = append(parts, c.StopWords+" stop words removed")
	}
	df := func(name string, d text.DocFreq) {
		switch {
		case d.Count > 0:
			parts = append(parts, fmt.Sprintf("%s %d documents", name, d.Count))
		case d.Fraction > 0:
			parts = append(parts, fmt.Sprintf("%s %s of the documents", name, num(d.Fraction)))
		}
	}
	df("min-df", c.MinDF)
	df("max-df", c.MaxDF)
	if c.MaxFeatures > 0 {
		parts = append(parts, fmt.Sprintf("at most %d terms", c.MaxFeatures))
	}
	return strings.Join(parts, ", ")
}
