package cli

import (
	"fmt"
	"io"
	"math"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/modelfile"
)

// gdaReport is what inspect shows of an LDA or QDA model. Covariances
// holds one p×p matrix (row-major) for LDA, one per class for QDA, and
// LogDets their log-determinants. For LDA, Linear is the softmax form and
// Logistic, with two classes, the logistic form; for two-class QDA,
// Constant is the constant of the discriminant function. Shrinkages are
// the intensities r_k applied to each class's covariance (for LDA before
// pooling), Ledoit–Wolf's with shrinkage auto.
type gdaReport struct {
	Kind          string                  `json:"-"`
	Estimator     gda.CovarianceEstimator `json:"covariance_estimator"`
	Shrinkage     modelfile.Float         `json:"shrinkage"`
	ShrinkageAuto bool                    `json:"shrinkage_auto"`
	Shrinkages    modelfile.Floats        `json:"shrinkages"`
	EMIterations  int                     `json:"em_iterations"`
	Classes       []string                `json:"classes"`
	Features      []string                `json:"features"`
	Priors        modelfile.Floats        `json:"priors"`
	ClassWeights  modelfile.Floats        `json:"class_weights"`
	Means         []modelfile.Floats      `json:"means"`
	Covariances   []modelfile.Floats      `json:"covariances"`
	LogDets       modelfile.Floats        `json:"log_determinants"`
	Linear        *linearForm             `json:"linear,omitempty"`
	Logistic      *logisticForm           `json:"logistic,omitempty"`
	Constant      *modelfile.Float        `json:"discriminant_constant,omitempty"`
	Explained     modelfile.Floats        `json:"explained_variance_ratio,omitempty"`
	priorSetting
}

// linearForm is the softmax form of LDA: log P(y = k | x) =
// w_kᵀx + b_k − log Σ_l exp(w_lᵀx + b_l).
type linearForm struct {
	W []modelfile.Floats `json:"w"` // per class, one weight per feature
	B modelfile.Floats   `json:"b"`
}

// newGDAReport fills what LDA and QDA share.
func newGDAReport(kind string, cfg gda.Config, iters int, schema *data.Schema, priors, weights, shrinkages []float64, means [][]float64) *gdaReport {
	r := &gdaReport{Kind: kind, Estimator: cfg.Estimator, Shrinkage: modelfile.Float(cfg.Shrinkage),
		ShrinkageAuto: cfg.ShrinkageAuto, Shrinkages: shrinkages, EMIterations: iters, Classes: schema.Classes(),
		Priors: priors, ClassWeights: weights, priorSetting: priorSetting{cfg.PriorAlpha, cfg.ClassPrior}}
	for _, c := range schema.Features {
		r.Features = append(r.Features, c.Name)
	}
	for _, v := range means {
		r.Means = append(r.Means, v)
	}
	return r
}

func inspectLDA(m gendisc.Model) report {
	l := m.(*gda.LDA)
	r := newGDAReport(gda.KindLDA, gda.Config(l.Config()), l.EMIterations(), l.Schema(), l.Priors(), l.ClassWeights(), l.Shrinkages(), l.Means())
	r.Covariances = []modelfile.Floats{l.Covariance()}
	r.LogDets = modelfile.Floats{l.LogDet()}
	w, b := l.Linear()
	p := len(r.Features)
	r.Linear = &linearForm{B: b}
	for k := range r.Classes {
		r.Linear.W = append(r.Linear.W, w[k*p:(k+1)*p])
	}
	if w, w0, ok := l.LogisticForm(); ok {
		r.Logistic = &logisticForm{Positive: r.Classes[1], Negative: r.Classes[0], W: w, W0: modelfile.Float(w0),
			features: r.Features, formula: "w = Σ⁻¹(μ_1 − μ_0),  w0 = log(π_1/π_0) − ½ (μ_1ᵀΣ⁻¹μ_1 − μ_0ᵀΣ⁻¹μ_0)"}
	}
	r.Explained = l.ExplainedVarianceRatio()
	return r
}

func inspectQDA(m gendisc.Model) report {
	q := m.(*gda.QDA)
	r := newGDAReport(gda.KindQDA, gda.Config(q.Config()), q.EMIterations(), q.Schema(), q.Priors(), q.ClassWeights(), q.Shrinkages(), q.Means())
	for _, c := range q.Covariances() {
		r.Covariances = append(r.Covariances, c)
	}
	r.LogDets = q.LogDets()
	if len(r.Classes) == 2 {
		c := modelfile.Float(math.Log(r.Priors[1]/r.Priors[0]) - (r.LogDets[1]-r.LogDets[0])/2)
		r.Constant = &c
	}
	return r
}

// maxMatrixText is the largest number of features whose covariance
// matrices inspect prints as text; --json always has them.
const maxMatrixText = 12

func (r *gdaReport) writeText(w io.Writer) error {
	if r.Kind == gda.KindLDA {
		fmt.Fprintf(w, "Linear discriminant analysis: one covariance matrix Σ shared by the classes\n\n")
		fmt.Fprintf(w, "\tlog p(x, y=k) = log π_k − ½ log|2πΣ| − ½ (x − μ_k)ᵀ Σ⁻¹ (x − μ_k)\n\n")
	} else {
		fmt.Fprintf(w, "Quadratic discriminant analysis: a covariance matrix Σ_k per class\n\n")
		fmt.Fprintf(w, "\tlog p(x, y=k) = log π_k − ½ log|2πΣ_k| − ½ (x − μ_k)ᵀ Σ_k⁻¹ (x − μ_k)\n\n")
	}
	shrinkage := "none"
	switch {
	case r.ShrinkageAuto && r.Kind == gda.KindLDA:
		shrinkage = "auto: each class's covariance C_k shrunk with the Ledoit–Wolf intensity r_k of its standardised rows, " +
			"(1 − r_k)C_k + r_k·(tr R_k/p)·diag(C_k), then pooled into the one Σ"
	case r.ShrinkageAuto:
		shrinkage = "auto: Σ_k = (1 − r_k)C_k + r_k·(tr R_k/p)·diag(C_k), r_k the Ledoit–Wolf intensity of the class's standardised rows"
	case r.Shrinkage > 0 && r.Kind == gda.KindLDA:
		shrinkage = num(float64(r.Shrinkage)) + ": (1 − r)Σ + r·(tr Σ/p)·I"
	case r.Shrinkage > 0:
		shrinkage = num(float64(r.Shrinkage)) + ": (1 − r)Σ_k + r·(tr Σ_k/p)·I"
	}
	fmt.Fprintf(w, "covariance estimator: %s; shrinkage: %s\n", r.Estimator, shrinkage)
	r.priorSetting.writeText(w)
	if r.EMIterations > 0 {
		fmt.Fprintf(w, "training rows with missing cells: estimated by EM, %d iterations\n", r.EMIterations)
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Classes))
	header := []string{"class", "prior π_k", "weight", "log|Σ|"}
	if r.Kind == gda.KindQDA {
		header[3] = "log|Σ_k|"
	}
	for k, c := range r.Classes {
		rows[k] = []string{c, num(r.Priors[k]), num(r.ClassWeights[k]), num(r.LogDets[min(k, len(r.LogDets)-1)])}
		if r.ShrinkageAuto {
			rows[k] = append(rows[k], num(r.Shrinkages[k]))
		}
	}
	if r.ShrinkageAuto {
		header = append(header, "shrinkage r_k")
	}
	if err := writeTable(w, header, rows); err != nil {
		return err
	}
	if err := r.writeByClass(w, "means μ_kj", r.Means); err != nil {
		return err
	}
	if err := r.writeCovariances(w); err != nil {
		return err
	}
	if r.Linear != nil {
		fmt.Fprintf(w, "\nlinear (softmax) form: P(y=k | x) = exp(w_kᵀx + b_k) / Σ_l exp(w_lᵀx + b_l)\n\n")
		fmt.Fprintf(w, "\tw_k = Σ⁻¹μ_k,  b_k = log π_k − ½ μ_kᵀΣ⁻¹μ_k\n")
		if err := r.writeByClass(w, "weights w_kj, and b_k", append(r.Linear.W, r.Linear.B)); err != nil {
			return err
		}
	}
	if r.Logistic != nil {
		fmt.Fprintf(w, "\ndiscriminant function: f(x) = log P(y=%s | x)/P(y=%s | x) = wᵀx + w0\n", r.Classes[1], r.Classes[0])
		if err := r.Logistic.writeText(w); err != nil {
			return err
		}
	}
	if r.Constant != nil {
		fmt.Fprintf(w, "\ndiscriminant function: f(x) = log P(y=%s | x)/P(y=%s | x)\n\n", r.Classes[1], r.Classes[0])
		fmt.Fprintf(w, "\tf(x) = %s − ½ (x − μ_1)ᵀ Σ_1⁻¹ (x − μ_1) + ½ (x − μ_0)ᵀ Σ_0⁻¹ (x − μ_0)\n", num(float64(*r.Constant)))
		fmt.Fprintf(w, "\t%s = log(π_1/π_0) − ½ (log|Σ_1| − log|Σ_0|)\n", num(float64(*r.Constant)))
	}
	if len(r.Explained) > 0 {
		fmt.Fprintf(w, "\ndiscriminant coordinates (gendisc transform): explained variance ratio")
		for _, v := range r.Explained {
			fmt.Fprintf(w, " %s", num(v))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// writeByClass writes a table with a row per feature and a column per
// class; a last extra vector, if any, is a row "(b)".
func (r *gdaReport) writeByClass(w io.Writer, title string, v []modelfile.Floats) error {
	fmt.Fprintf(w, "\n%s (rows: features, columns: classes)\n", title)
	rows := make([][]string, len(r.Features))
	for j, f := range r.Features {
		rows[j] = []string{f}
		for k := range r.Classes {
			rows[j] = append(rows[j], num(v[k][j]))
		}
	}
	if len(v) > len(r.Classes) {
		row := []string{"(b)"}
		for _, x := range v[len(r.Classes)] {
			row = append(row, num(x))
		}
		rows = append(rows, row)
	}
	return writeTable(w, append([]string{"feature"}, r.Classes...), rows)
}

// writeCovariances writes the covariance matrices, or where to find them
// when there are many features.
func (r *gdaReport) writeCovariances(w io.Writer) error {
	p := len(r.Features)
	if p > maxMatrixText {
		_, err := fmt.Fprintf(w, "\ncovariance matrices: %d×%d, printed by inspect --json\n", p, p)
		return err
	}
	for i, cov := range r.Covariances {
		title := "covariance matrix Σ"
		if r.Kind == gda.KindQDA {
			title = fmt.Sprintf("covariance matrix Σ_k of class %s", r.Classes[i])
		}
		if err := writeMatrix(w, title, r.Features, cov); err != nil {
			return err
		}
	}
	return nil
}
