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
//	dataset,model,m,splits,mean_error,std_error,fallbacks,warnings
//
// one row per task, learner and size, in the order of r; numbers in
// their shortest exact decimal form.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "model", "m", "splits", "mean_error", "std_error", "fallbacks", "warnings"})
	for _, t := range r.Tasks {
		for _, c := range t.Curves {
			for _, p := range c.Points {
				cw.Write([]string{t.Name, c.Learner, strconv.Itoa(p.M), strconv.Itoa(p.Splits),
					formatFloat(p.Mean), formatFloat(p.StdErr), strconv.Itoa(p.Fallbacks), strconv.Itoa(p.Warnings)})
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
// pair the crossover m* and the gap. A learner that fell back to the
// majority class in some splits is marked with the number of such splits
// and the sizes where they happened, "(50 fallbacks at m 6–22)", and one
// whose fit warned in some splits (Point.Warnings) likewise, "(12 warned
// at m 45–90)". m* reads
// "none" when there is none in range; it is followed by "(clear from m =
// C)" when the paired t-test finds the discriminative learner better at
// level Alpha at every size only from a larger C on (Crossover.ClearFrom),
// and by "(no clear crossover)" when there is no such size; the gap is followed by
// its size when the largest size had fallbacks, and reads "–" when every
// size had some.
func (r *Result) WriteSummary(w io.Writer) error {
	header, rows := r.summary()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range append([][]string{header}, rows...) {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

// summary returns the header and the rows of the summary table: the
// columns of errorTable, then m* and the gap of every pair.
func (r *Result) summary() (header []string, rows [][]string) {
	header, rows = r.errorTable()
	for _, p := range pairs(r.Learners) {
		g, d := r.Learners[p[0]].Name, r.Learners[p[1]].Name
		header = append(header, fmt.Sprintf("m* %s/%s", g, d), fmt.Sprintf("gap %s−%s", g, d))
	}
	for t, task := range r.Tasks {
		for _, x := range task.Crossovers {
			rows[t] = append(rows[t], x.crossoverCell(), x.gapCell(task.Sizes))
		}
	}
	return header, rows
}

// errorTable returns the first columns of the summary table: the task,
// its rows, classes and range of m, and the error of each learner.
func (r *Result) errorTable() (header []string, rows [][]string) {
	header = []string{"dataset", r.unit(), "classes", "m"}
	for _, l := range r.Learners {
		header = append(header, "error "+l.Name)
	}
	for _, t := range r.Tasks {
		row := []string{t.Name, strconv.Itoa(t.Rows), strconv.Itoa(len(t.Classes)),
			fmt.Sprintf("%d–%d", t.Sizes[0], t.Sizes[len(t.Sizes)-1])}
		for _, c := range t.Curves {
			p := c.Points[len(c.Points)-1]
			cell := fmt.Sprintf("%.4f ± %.4f", p.Mean, p.StdErr)
			if f := c.count(fallbacks); f > 0 {
				cell += fmt.Sprintf(" (%d fallbacks at m %s)", f, c.sizes(fallbacks))
			}
			if w := c.count(warnings); w > 0 {
				cell += fmt.Sprintf(" (%d warned at m %s)", w, c.sizes(warnings))
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// crossoverTable returns one row per task and pair: the task, the two
// learners, m*, the p-value of the paired test and the gap.
func (r *Result) crossoverTable() (header []string, rows [][]string) {
	header = []string{"dataset", "generative", "discriminative", "m*", "p (paired t-test)", "clear from m", "gap"}
	for _, t := range r.Tasks {
		for _, x := range t.Crossovers {
			pv, clear := "–", "–"
			if x.Found() {
				pv = fmt.Sprintf("%.2g", x.P)
			}
			if x.Clear() {
				clear = strconv.Itoa(x.ClearFrom)
			}
			m := "none"
			if x.Found() {
				m = strconv.Itoa(x.M)
			}
			rows = append(rows, []string{t.Name, x.Generative, x.Discriminative, m, pv, clear, x.gapCell(t.Sizes)})
		}
	}
	return header, rows
}

// crossoverCell is m* as the summary shows it: the size where the means
// cross, and when the paired test is not significant from there on,
// from which size it is, or that it is at none.
func (x Crossover) crossoverCell() string {
	switch {
	case !x.Found():
		return "none"
	case !x.Clear():
		return fmt.Sprintf("%d (no clear crossover)", x.M)
	case x.ClearFrom > x.M:
		return fmt.Sprintf("%d (clear from m = %d)", x.M, x.ClearFrom)
	}
	return strconv.Itoa(x.M)
}

// gapCell is the gap as the tables show it, with its size when that is not
// the largest of sizes.
func (x Crossover) gapCell(sizes []int) string {
	switch {
	case x.GapM == 0:
		return "–"
	case x.GapM != sizes[len(sizes)-1]:
		return fmt.Sprintf("%+.4f (m %d)", x.Gap, x.GapM)
	}
	return fmt.Sprintf("%+.4f", x.Gap)
}

// fallbacks and warnings are the per-point counts that count and sizes
// take.
func fallbacks(p Point) int { return p.Fallbacks }
func warnings(p Point) int  { return p.Warnings }

// count sums the per-point count n over all sizes of c.
func (c Curve) count(n func(Point) int) int {
	sum := 0
	for _, p := range c.Points {
		sum += n(p)
	}
	return sum
}

// sizes lists the sizes of c where the per-point count n is positive,
// runs of consecutive points as a range: "6–22", "6, 30–45".
func (c Curve) sizes(n func(Point) int) string {
	var parts []string
	pts := c.Points
	for i := 0; i < len(pts); i++ {
		if n(pts[i]) == 0 {
			continue
		}
		j := i
		for j+1 < len(pts) && n(pts[j+1]) > 0 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", pts[i].M, pts[j].M))
		} else {
			parts = append(parts, strconv.Itoa(pts[i].M))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}
