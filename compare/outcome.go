package compare

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/internal/atomicfile"
)

// Outcome is the result of an Experiment, split into reports by the set of
// learners that apply to each task.
type Outcome struct {
	// Reports hold one Result per set of learners: the tasks that those
	// learners, and no other, apply to, without the curves and crossovers
	// of the learners that do not apply. The report with the most learners
	// (the earliest among ties) comes first and is the main report; the
	// others go into subdirectories of it named after their learners.
	Reports []*Report
	// Notes are the Experiment's notes, then one per report after the
	// first, naming its tasks, its learners and its directory.
	Notes []string
}

// Report is one report directory of an Outcome.
type Report struct {
	Result *Result
	// Dir is the report's directory inside the main report's: the names
	// of its learners joined by "-", such as "nb-logistic"; "" for the main
	// report.
	Dir string
}

// Learners returns the names of the report's learners.
func (r *Report) Learners() []string {
	names := make([]string, len(r.Result.Learners))
	for l, li := range r.Result.Learners {
		names[l] = li.Name
	}
	return names
}

// Tasks returns the names of the report's tasks.
func (r *Report) Tasks() []string {
	names := make([]string, len(r.Result.Tasks))
	for t, tr := range r.Result.Tasks {
		names[t] = tr.Name
	}
	return names
}

// Run runs the experiment (the package function Run on its tasks and
// learners with cfg) and splits the result into its reports.
func (e *Experiment) Run(ctx context.Context, cfg Config) (*Outcome, error) {
	res, err := Run(ctx, e.Tasks, e.Learners, cfg)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Reports: e.group(res), Notes: slices.Clone(e.Notes)}
	for _, r := range o.Reports[1:] {
		o.Notes = append(o.Notes, fmt.Sprintf("%s: with %s only, in the report %s/index.html",
			strings.Join(r.Tasks(), ", "), strings.Join(r.Learners(), ", "), r.Dir))
	}
	return o, nil
}

// group splits res by the set of learners that apply to each task.
func (e *Experiment) group(res *Result) []*Report {
	var reports []*Report
	var keys []string
	for t, applies := range e.Applies {
		key := fmt.Sprint(applies)
		i := slices.Index(keys, key)
		if i < 0 {
			sub := *res
			sub.Learners, sub.Tasks = nil, nil
			for l, ok := range applies {
				if ok {
					sub.Learners = append(sub.Learners, res.Learners[l])
				}
			}
			keys, reports = append(keys, key), append(reports, &Report{Result: &sub})
			i = len(reports) - 1
		}
		tr := res.Tasks[t]
		tr.Curves, tr.Crossovers = nil, nil
		names := map[string]bool{}
		for l, ok := range applies {
			if ok {
				tr.Curves = append(tr.Curves, res.Tasks[t].Curves[l])
				names[res.Learners[l].Name] = true
			}
		}
		for _, x := range res.Tasks[t].Crossovers {
			if names[x.Generative] && names[x.Discriminative] {
				tr.Crossovers = append(tr.Crossovers, x)
			}
		}
		reports[i].Result.Tasks = append(reports[i].Result.Tasks, tr)
	}
	slices.SortStableFunc(reports, func(a, b *Report) int { return len(b.Result.Learners) - len(a.Result.Learners) })
	for _, r := range reports[1:] {
		r.Dir = strings.Join(r.Learners(), "-")
	}
	return reports
}

// WriteSummary writes the summary table of each report (Result.WriteSummary),
// each after a line naming its learners when there are several reports,
// then the notes, one line each after "note: ".
func (o *Outcome) WriteSummary(w io.Writer) error {
	for _, r := range o.Reports {
		if len(o.Reports) > 1 {
			if _, err := fmt.Fprintf(w, "models %s:\n", strings.Join(r.Learners(), ", ")); err != nil {
				return err
			}
		}
		if err := r.Result.WriteSummary(w); err != nil {
			return err
		}
		if len(o.Reports) > 1 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
	}
	for _, n := range o.Notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return err
		}
	}
	return nil
}

// WriteReports writes the main report to dir and the others into its
// subdirectories (WriteReport), with the Outcome's notes after
// info.Notes. The other reports are written first beside dir, then the
// main report replaces dir (only a previous report or an empty directory
// is replaced), then the others move into it; a failure leaves no report.
func (o *Outcome) WriteReports(dir string, info ReportInfo) (err error) {
	info.Notes = append(slices.Clip(info.Notes), o.Notes...)
	var stage string
	if len(o.Reports) > 1 {
		// A staging directory, never committed: its reports move out of
		// it, then it is removed (by a signal too).
		tmp, err := atomicfile.MkdirTemp(dir)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		defer tmp.Abort()
		stage = tmp.Name()
		for _, r := range o.Reports[1:] {
			if err := WriteReport(filepath.Join(stage, r.Dir), r.Result, info); err != nil {
				return err
			}
		}
	}
	if err := WriteReport(dir, o.Reports[0].Result, info); err != nil {
		return err
	}
	for _, r := range o.Reports[1:] {
		if err := os.Rename(filepath.Join(stage, r.Dir), filepath.Join(dir, r.Dir)); err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("compare: %w", err)
		}
	}
	return nil
}

// SetUntuned records, in every report of o, a run with tuned learners,
// the crossovers of the same report of u, the run at fixed settings on
// the same splits (Result.SetUntuned).
func (o *Outcome) SetUntuned(u *Outcome) error {
	if len(u.Reports) != len(o.Reports) {
		return fmt.Errorf("compare: the untuned run has %d reports, the tuned one %d", len(u.Reports), len(o.Reports))
	}
	for i, r := range o.Reports {
		if err := r.Result.SetUntuned(u.Reports[i].Result); err != nil {
			return err
		}
	}
	return nil
}
