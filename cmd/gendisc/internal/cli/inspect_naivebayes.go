package cli

import (
	"fmt"
	"io"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
)

// gaussianNBReport is what inspect shows of a Gaussian naive Bayes model:
// Means[k][j] = μ_kj and Variances[k][j] = σ²_kj, ε included.
type gaussianNBReport struct {
	Variance     naivebayes.Variance `json:"variance"`
	VarSmoothing float64             `json:"var_smoothing"`
	Epsilon      float64             `json:"epsilon"`
	Classes      []string            `json:"classes"`
	Features     []string            `json:"features"`
	Priors       modelfile.Floats    `json:"priors"`
	ClassWeights modelfile.Floats    `json:"class_weights"`
	Means        []modelfile.Floats  `json:"means"`
	Variances    []modelfile.Floats  `json:"variances"`
	// Logistic is set for two classes whose variances are shared
	// (feature or shared tying): the log-odds are then linear in x
	// (naivebayes.Gaussian.LogisticForm).
	Logistic *logisticForm `json:"logistic,omitempty"`
	priorSetting
}

func inspectGaussianNB(m gendisc.Model) report {
	g := m.(*naivebayes.Gaussian)
	cfg := g.Config()
	r := &gaussianNBReport{
		Variance:     cfg.Variance,
		VarSmoothing: max(cfg.VarSmoothing, 0), // NoVarSmoothing is 0
		Epsilon:      g.Epsilon(),
		Classes:      g.Classes(),
		Priors:       g.Priors(),
		ClassWeights: g.ClassWeights(),
		priorSetting: priorSetting{cfg.PriorAlpha, cfg.ClassPrior},
	}
	for _, c := range g.Schema().Features {
		r.Features = append(r.Features, c.Name)
	}
	for _, v := range g.Means() {
		r.Means = append(r.Means, v)
	}
	for _, v := range g.Variances() {
		r.Variances = append(r.Variances, v)
	}
	if w, w0, ok := g.LogisticForm(); ok {
		r.Logistic = &logisticForm{Positive: r.Classes[1], Negative: r.Classes[0], W: w, W0: modelfile.Float(w0), features: r.Features,
			formula: "w_j = (μ_1j − μ_0j)/σ²_j,  w0 = log(π_1/π_0) − Σ_j (μ_1j² − μ_0j²)/(2σ²_j)"}
	}
	return r
}

func (r *gaussianNBReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Gaussian naive Bayes\n\n")
	fmt.Fprintf(w, "\tlog p(x, y=k) = log π_k + Σ_j [−½ log(2π σ²_kj) − (x_j − μ_kj)² / (2 σ²_kj)]\n\n")
	fmt.Fprintf(w, "variance tying: %s\n", r.Variance)
	fmt.Fprintf(w, "var-smoothing: %s, ε = %s added to every variance\n", num(r.VarSmoothing), num(r.Epsilon))
	r.priorSetting.writeText(w)
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Classes))
	for k, c := range r.Classes {
		rows[k] = []string{c, num(r.Priors[k]), num(r.ClassWeights[k])}
	}
	if err := writeTable(w, []string{"class", "prior π_k", "weight"}, rows); err != nil {
		return err
	}
	for _, t := range []struct {
		title string
		v     []modelfile.Floats
	}{{"means μ_kj", r.Means}, {"variances σ²_kj", r.Variances}} {
		if err := writeByClass(w, t.title+" (rows: features, columns: classes)", "feature", r.Features, r.Classes, t.v); err != nil {
			return err
		}
	}
	if r.Logistic != nil {
		return r.Logistic.writeText(w)
	}
	return nil
}
