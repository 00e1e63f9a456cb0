package compare

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/internal/atomicfile"
)

// ReportInfo is what the report says about how it was made.
type ReportInfo struct {
	// Command is the exact command line that produced the report.
	Command string
	// Version is the version of the program, such as a module version or
	// a VCS revision.
	Version string
	// Notes are further lines for the settings section, such as model
	// flags that apply to every learner.
	Notes []string
	// Formats are further formats of the plots besides SVG, from
	// PlotFormats ("pdf", "png"): each plot is also written under its SVG
	// file's name with the format's extension, and index.html links to it.
	// A PDF file carries the time it was written, so it differs between
	// runs.
	Formats []string
}

// The files of a report directory besides the plots.
const (
	IndexFile   = "index.html"
	CurvesFile  = "curves.csv"
	SummaryFile = "summary.txt"
)

//go:embed report.html.tmpl
var reportSource string

var reportTemplate = template.Must(template.New("report").Parse(reportSource))

// WriteReport writes the report of r to the directory dir: index.html,
// curves.csv, summary.txt and one SVG plot per task (PlotFiles names
// them). The files are written into a new temporary directory beside dir,
// which is then renamed to dir, so that a failure leaves dir as it was. An
// existing dir is replaced only when it is empty or holds a previous
// report (an index.html and a curves.csv); otherwise WriteReport refuses
// to touch it.
func WriteReport(dir string, r *Result, info ReportInfo) (err error) {
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	tmp, err := atomicfile.MkdirTemp(dir)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	defer tmp.Abort()
	for _, f := range info.Formats {
		if !slices.Contains(PlotFormats, f) {
			return fmt.Errorf("compare: plot format %q: want one of %s", f, strings.Join(PlotFormats, ", "))
		}
	}
	files, err := r.render(info)
	if err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(tmp.Name(), name), b, 0o644); err != nil {
			return fmt.Errorf("compare: %w", err)
		}
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := tmp.Commit(); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
}

// replaceable returns an error unless dir does not exist, is an empty
// directory or holds a report.
func replaceable(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("compare: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("compare: %s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	for _, f := range []string{IndexFile, CurvesFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("compare: %s exists and does not hold a report (no %s): choose another output directory", dir, f)
		}
	}
	return nil
}

// render returns the contents of the report's files by name.
func (r *Result) render(info ReportInfo) (map[string][]byte, error) {
	files := map[string][]byte{}
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		return nil, err
	}
	files[CurvesFile] = bytes.Clone(b.Bytes())
	b.Reset()
	if err := r.WriteSummary(&b); err != nil {
		return nil, err
	}
	files[SummaryFile] = bytes.Clone(b.Bytes())
	plots := r.PlotFiles()
	for t, name := range plots {
		b.Reset()
		if err := r.WriteSVG(&b, t); err != nil {
			return nil, err
		}
		files[name] = bytes.Clone(b.Bytes())
		for _, f := range info.Formats {
			if f == "svg" {
				continue
			}
			b.Reset()
			if err := r.WritePlot(&b, t, f); err != nil {
				return nil, err
			}
			files[strings.TrimSuffix(name, ".svg")+"."+f] = bytes.Clone(b.Bytes())
		}
	}
	b.Reset()
	if err := r.writeIndex(&b, info, plots); err != nil {
		return nil, err
	}
	files[IndexFile] = b.Bytes()
	return files, nil
}

// PlotFiles returns the file name of each task's plot in a report: the
// task name with characters other than letters, digits, '-', '_' and '.'
// replaced by '_', then ".svg"; a name that is taken gets the task's
// number appended.
func (r *Result) PlotFiles() []string {
	out := make([]string, len(r.Tasks))
	taken := map[string]bool{IndexFile: true, CurvesFile: true, SummaryFile: true}
	for t, task := range r.Tasks {
		base := strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
				return c
			}
			return '_'
		}, task.Name)
		name := base + ".svg"
		if taken[strings.ToLower(name)] || strings.HasPrefix(name, ".") {
			name = fmt.Sprintf("%s_%d.svg", base, t+1)
		}
		taken[strings.ToLower(name)] = true
		out[t] = name
	}
	return out
}

// indexLink is a link of the index: its text and file.
type indexLink struct{ Text, File string }

// indexData is what the index template shows.
type indexData struct {
	Info   ReportInfo
	R      *Result
	Header []string // the error table
	Rows   [][]string
	// CrossHeader and CrossRows are the crossover table, one row per task
	// and pair, so that it grows down, not sideways, with the models.
	CrossHeader []string
	CrossRows   [][]string
	// TunedHeader and TunedRows are the table of tuned values, if any.
	TunedHeader []string
	TunedRows   [][]string
	Alpha       float64
	Plots       []indexPlot
	Settings    []string
}

type indexPlot struct {
	Name, File string
	Others     []indexLink // the plot in the other formats
	Width      int
	Height     int
}

func (r *Result) writeIndex(w *bytes.Buffer, info ReportInfo, files []string) error {
	d := indexData{Info: info, R: r, Alpha: Alpha}
	d.Header, d.Rows = r.errorTable()
	d.CrossHeader, d.CrossRows = r.crossoverTable()
	if r.tuned() {
		d.TunedHeader, d.TunedRows = r.tunedTable()
	}
	for t, task := range r.Tasks {
		pl := indexPlot{Name: task.Name, File: files[t],
			Width: int(plotWidth.Points() * 4 / 3), Height: int(plotHeight.Points() * 4 / 3)}
		for _, f := range info.Formats {
			if f != "svg" {
				pl.Others = append(pl.Others, indexLink{strings.ToUpper(f), strings.TrimSuffix(files[t], ".svg") + "." + f})
			}
		}
		d.Plots = append(d.Plots, pl)
	}
	for _, l := range r.Learners {
		s := fmt.Sprintf("%s: %s, drawn %s", l.Name, l.Family, l.Style)
		if l.Settings != "" {
			s += "; " + l.Settings
		}
		d.Settings = append(d.Settings, s)
	}
	if err := reportTemplate.Execute(w, d); err != nil {
		return fmt.Errorf("compare: report: %w", err)
	}
	return nil
}
