package metrics

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// Text writes r in human-readable form: the scalar figures, the confusion
// matrix with the class names, the per-class table with its macro and
// weighted averages and, for two classes, the binary block. Undefined
// values print as "undefined".
func (r *Report) Text(w io.Writer) error {
	var buf bytes.Buffer
	kv := newTable(&buf, 0)
	rows(kv, r.N, r.TotalWeight)
	fmt.Fprintf(kv, "accuracy\t%s\n", fixed(r.Accuracy))
	fmt.Fprintf(kv, "error\t%s\n", fixed(r.Error))
	fmt.Fprintf(kv, "log-loss\t%s nats/row, %s bits/row\n", fixed(r.LogLoss), fixed(r.LogLossBits))
	fmt.Fprintf(kv, "Brier\t%s (sum over classes)\n", fixed(r.Brier))
	fmt.Fprintf(kv, "ROC AUC\t%s (one-vs-rest, macro)\n", fixed(r.Macro.ROCAUC))
	kv.Flush()

	name := nameWidth(r.Classes)
	fmt.Fprintf(&buf, "\nconfusion matrix (rows: true class, columns: predicted class)\n")
	tab := newTable(&buf, tabwriter.AlignRight)
	row(tab, name, "", r.Classes...)
	for t, c := range r.Classes {
		cells := make([]string, len(r.Classes))
		for p, v := range r.Confusion[t] {
			cells[p] = count(v)
		}
		row(tab, name, c, cells...)
	}
	tab.Flush()

	fmt.Fprintln(&buf)
	tab = newTable(&buf, tabwriter.AlignRight)
	row(tab, name, "class", "precision", "recall", "F1", "support", "ROC AUC")
	for _, c := range r.PerClass {
		row(tab, name, c.Class, fixed(c.Precision), fixed(c.Recall), fixed(c.F1), count(c.Support), fixed(c.ROCAUC))
	}
	row(tab, name, "macro avg", fixed(r.Macro.Precision), fixed(r.Macro.Recall), fixed(r.Macro.F1),
		count(r.TotalWeight), fixed(r.Macro.ROCAUC))
	row(tab, name, "weighted avg", fixed(r.Weighted.Precision), fixed(r.Weighted.Recall), fixed(r.Weighted.F1),
		count(r.TotalWeight), fixed(r.Weighted.ROCAUC))
	tab.Flush()

	if b := r.Binary; b != nil {
		fmt.Fprintf(&buf, "\npositive class: %s\n", b.Positive)
		kv = newTable(&buf, 0)
		fmt.Fprintf(kv, "TP %s, FP %s, FN %s, TN %s\n", count(b.TP), count(b.FP), count(b.FN), count(b.TN))
		fmt.Fprintf(kv, "type I error rate\t%s\tFP/(FP+TN)\n", fixed(b.TypeIErrorRate))
		fmt.Fprintf(kv, "type II error rate\t%s\tFN/(FN+TP)\n", fixed(b.TypeIIErrorRate))
		fmt.Fprintf(kv, "precision\t%s\tTP/(TP+FP)\n", fixed(b.Precision))
		fmt.Fprintf(kv, "recall\t%s\tTP/(TP+FN)\n", fixed(b.Recall))
		fmt.Fprintf(kv, "specificity\t%s\tTN/(TN+FP)\n", fixed(b.Specificity))
		fmt.Fprintf(kv, "F1\t%s\n", fixed(b.F1))
		fmt.Fprintf(kv, "ROC AUC\t%s\n", fixed(b.ROCAUC))
		fmt.Fprintf(kv, "Brier\t%s\tsklearn's brier_score_loss\n", fixed(b.BrierScoreLoss))
		kv.Flush()
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Text writes r in human-readable form.
func (r *RegressionReport) Text(w io.Writer) error {
	var buf bytes.Buffer
	kv := newTable(&buf, 0)
	rows(kv, r.N, r.TotalWeight)
	fmt.Fprintf(kv, "RMSE\t%s\n", general(r.RMSE))
	fmt.Fprintf(kv, "MSE\t%s\n", general(r.MSE))
	fmt.Fprintf(kv, "MAE\t%s\n", general(r.MAE))
	fmt.Fprintf(kv, "R²\t%s\n", general(r.R2))
	fmt.Fprintf(kv, "σ²\t%s (MLE of the residual variance)\n", general(r.Sigma2))
	fmt.Fprintf(kv, "log-likelihood\t%s nats, %s nats/row (Gaussian residuals)\n",
		general(r.LogLikelihood), general(r.MeanLogLikelihood))
	kv.Flush()
	_, err := w.Write(buf.Bytes())
	return err
}

// newTable returns a tabwriter over buf. Without AlignRight it puts two
// spaces between columns; with it, no padding: row supplies the spaces, so
// that the first column starts at the margin.
func newTable(buf *bytes.Buffer, flags uint) *tabwriter.Writer {
	pad := 2
	if flags&tabwriter.AlignRight != 0 {
		pad = 0
	}
	return tabwriter.NewWriter(buf, 0, 0, pad, ' ', flags)
}

// row writes a line of a right-aligned table: label left-aligned in a
// column of the given width, then the cells right-aligned, two spaces
// apart.
func row(tab io.Writer, width int, label string, cells ...string) {
	fmt.Fprintf(tab, "%-*s\t", width, label)
	for _, c := range cells {
		fmt.Fprintf(tab, "  %s\t", c)
	}
	fmt.Fprintln(tab)
}

// rows writes the row count, and the total weight when it differs.
func rows(kv io.Writer, n int, total float64) {
	if total == float64(n) {
		fmt.Fprintf(kv, "rows\t%d\n", n)
		return
	}
	fmt.Fprintf(kv, "rows\t%d (total weight %s)\n", n, general(total))
}

// nameWidth is the width of the first column of the class tables.
func nameWidth(classes []string) int {
	n := len("weighted avg")
	for _, c := range classes {
		n = max(n, len([]rune(c)))
	}
	return n
}

// fixed formats a figure in [0, 1] or so with four decimals.
func fixed(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "undefined"
	}
	return fmt.Sprintf("%.4f", v)
}

// general formats a figure of any magnitude to six significant digits.
func general(v float64) string {
	if math.IsNaN(v) {
		return "undefined"
	}
	return fmt.Sprintf("%.6g", v)
}

// count formats a (weighted) count: as an integer when it is one.
func count(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
