package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteCSV writes every figure of r as CSV with the header
//
//	dataset,model,m,splits,mean_error,std_error,fallbacks,warnings
//
// one row per task, learner and size, in the order of r; numbers in
// their shortest exact decimal form. When some learner is tuned
// (Learner.Tuned), five columns follow: tuned (the flag), tuned_median,
// tuned_min and tuned_max (the values chosen over the splits, see
// TunedSummary) and tuned_defaults; empty for the learners not tuned, and
// a row per flag for a learner tuned on several.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"dataset", "model", "m", "splits", "mean_error", "std_error", "fallbacks", "warnings"}
	tuned := r.tuned()
	if tuned {
		header = append(header, "tuned", "tuned_median", "tuned_min", "tuned_max", "tuned_defaults")
	}
	cw.Write(header)
	for _, t := range r.Tasks {
		for _, c := range t.Curves {
			for _, p := range c.Points {
				row := []string{t.Name, c.Learner, strconv.Itoa(p.M), strconv.Itoa(p.Splits),
					formatFloat(p.Mean), formatFloat(p.StdErr), strconv.Itoa(p.Fallbacks), strconv.Itoa(p.Warnings)}
				if !tuned {
					cw.Write(row)
					continue
				}
				if p.Tuned == nil {
					cw.Write(append(row, "", "", "", "", ""))
				}
				for _, ts := range p.Tuned {
					cw.Write(append(slices.Clip(row), ts.Name, formatFloat(ts.Median), formatFloat(ts.Min),
						formatFloat(ts.Max), strconv.Itoa(ts.Defaults)))
				}
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
//
// When some learner is tuned, a second table follows, of the values
// chosen per size (tunedTable).
func (r *Result) WriteSummary(w io.Writer) error {
	if err := writeTable(w, r.summary); err != nil {
		return err
	}
	if !r.tuned() {
		return nil
	}
	fmt.Fprintln(w)
	return writeTable(w, r.tunedTable)
}

// writeTable writes the table of rows as aligned text.
func writeTable(w io.Writer, table func() (header []string, rows [][]string)) error {
	header, rows := table()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range append([][]string{header}, rows...) {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

// tuned reports whether some learner of r is tuned.
func (r *Result) tuned() bool {
	for _, l := range r.Learners {
		if l.Tuned != nil {
			return true
		}
	}
	return false
}

// tunedTable returns one row per task, tuned learner and size: the flag
// tuned, the median of the values chosen over the splits and their range,
// "0.01 (0.001–1)", and the splits not tuned (TunedSummary.Defaults).
func (r *Result) tunedTable() (header []string, rows [][]string) {
	header = []string{"dataset", "model", "m", "tuned", "chosen: median (min–max)", "untuned splits"}
	for _, t := range r.Tasks {
		for _, c := range t.Curves {
			for _, p := range c.Points {
				for _, ts := range p.Tuned {
					v := "–"
					if !math.IsNaN(ts.Median) {
						v = fmt.Sprintf("%.3g (%.3g–%.3g)", ts.Median, ts.Min, ts.Max)
					}
					rows = append(rows, []string{t.Name, c.Learner, strconv.Itoa(p.M), ts.Name, v, strconv.Itoa(ts.Defaults)})
				}
			}
		}
	}
	return header, rows
}

// summary returns the header and the rows of the summary table: the
// columns of errorTable, then m* and the gap of every pair.
func (r *Result) summary() (header []string, rows [][]string) {
	header, rows = r.errorTable()
	for _, p := range pairs(r.Learners) {
		g, d := r.Learners[p[0]].Name, r.Learners[p[1]].Name
		header = append(header, fmt.Sprintf("m* %s/%s", g, d), fmt.Sprintf("gap %s−%s", g, d))
		if r.HasUntuned() {
			header = append(header, fmt.Sprintf("m* untuned %s/%s", g, d))
		}
	}
	for t, task := range r.Tasks {
		for i, x := range task.Crossovers {
			rows[t] = append(rows[t], x.crossoverCell(), x.gapCell(task.Sizes))
			if task.Untuned != nil {
				rows[t] = append(rows[t], task.Untuned[i].crossoverCell())
			}
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
	if r.HasUntuned() {
		header = append(header, "m* untuned", "clear from m untuned")
	}
	for _, t := range r.Tasks {
		for i, x := range t.Crossovers {
			pv := "–"
			if x.Found() {
				pv = fmt.Sprintf("%.2g", x.P)
			}
			row := []string{t.Name, x.Generative, x.Discriminative, x.mCell(), pv, x.clearCell(), x.gapCell(t.Sizes)}
			if t.Untuned != nil {
				row = append(row, t.Untuned[i].mCell(), t.Untuned[i].clearCell())
			}
			rows = append(rows, row)
		}
	}
	return header, rows
}

// mCell is m*, or "none".
func (x Crossover) mCell() string {
	if x.Found() {
		return strconv.Itoa(x.M)
	}
	return "none"
}

// clearCell is the size from which the crossover is clear, or "–".
func (x Crossover) clearCell() string {
	if x.Clear() {
		return strconv.Itoa(x.ClearFrom)
	}
	return "–"
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
