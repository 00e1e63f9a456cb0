package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteCSV writes every figure of r as CSV with the header
//
//	dataset,model,m,splits,mean_error,std_error,fallbacks
//
// one row per task, learner and size, in the order of r; numbers in
// their shortest exact decimal form.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "model", "m", "splits", "mean_error", "std_error", "fallbacks"})
	for _, t := range r.Tasks {
		for _, c := range t.Curves {
			for _, p := range c.Points {
				cw.Write([]string{t.Name, c.Learner, strconv.Itoa(p.M), strconv.Itoa(p.Splits),
					formatFloat(p.Mean), formatFloat(p.StdErr), strconv.Itoa(p.Fallbacks)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteSummary writes the summary table of r as aligned text: per task,
// its rows and classes, the range of m, each learner's mean error ± its
// standard error at the largest m, and for every generative-discriminative
// pair the crossover m* ("none" when there is none in range) and the gap.
// Learners that fell back to the majority class in some split are marked
// with the number of such splits over all sizes.
func (r *Result) WriteSummary(w io.Writer) error {
	header, rows := r.summary()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range append([][]string{header}, rows...) {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

// summary returns the header and the rows of the summary table.
func (r *Result) summary() (header []string, rows [][]string) {
	header = []string{"dataset", "rows", "classes", "m"}
	for _, l := range r.Learners {
		header = append(header, "error "+l.Name)
	}
	for _, p := range pairs(r.Learners) {
		g, d := r.Learners[p[0]].Name, r.Learners[p[1]].Name
		header = append(header, fmt.Sprintf("m* %s/%s", g, d), fmt.Sprintf("gap %s−%s", g, d))
	}
	for _, t := range r.Tasks {
		row := []string{t.Name, strconv.Itoa(t.Rows), strconv.Itoa(len(t.Classes)),
			fmt.Sprintf("%d–%d", t.Sizes[0], t.Sizes[len(t.Sizes)-1])}
		for _, c := range t.Curves {
			p := c.Points[len(c.Points)-1]
			cell := fmt.Sprintf("%.4f ± %.4f", p.Mean, p.StdErr)
			if f := c.fallbacks(); f > 0 {
				cell += fmt.Sprintf(" (%d fallbacks)", f)
			}
			row = append(row, cell)
		}
		for _, x := range t.Crossovers {
			m := "none"
			if x.Found() {
				m = strconv.Itoa(x.M)
			}
			row = append(row, m, fmt.Sprintf("%+.4f", x.Gap))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// fallbacks counts the fallback splits of c over all sizes.
func (c Curve) fallbacks() int {
	n := 0
	for _, p := range c.Points {
		n += p.Fallbacks
	}
	return n
}
