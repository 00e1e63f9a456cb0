package compare

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	vgrec "gonum.org/v1/plot/vg/recorder"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testResult runs two stub learners on iris and wine.
func testResult(t *testing.T) *Result {
	t.Helper()
	_, res := runCSV(t, Config{Splits: 5, Seed: 1}, stub("nb", Generative), stub("logistic", Discriminative), failing("qda"))
	return res
}

// svgPath is a path element of an SVG document.
type svgPath struct {
	D     string `xml:"d,attr"`
	Style string `xml:"style,attr"`
}

// parseSVG checks that b is well-formed XML with an svg root and returns
// its path elements.
func parseSVG(t *testing.T, b []byte) []svgPath {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var paths []svgPath
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = se.Name.Local
		}
		if se.Name.Local == "path" {
			var p svgPath
			if err := dec.DecodeElement(&p, &se); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	if root != "svg" {
		t.Fatalf("SVG root element %q", root)
	}
	return paths
}

// TestSVG checks that a plot is well-formed SVG holding, per learner, a
// stroked line through its points in the learner's dash pattern and a
// translucent filled band.
func TestSVG(t *testing.T) {
	res := testResult(t)
	var b bytes.Buffer
	if err := res.WriteSVG(&b, 0); err != nil {
		t.Fatal(err)
	}
	paths := parseSVG(t, b.Bytes())
	n := len(res.Tasks[0].Sizes)
	bands := 0
	for _, p := range paths {
		if strings.Contains(p.Style, "fill-opacity:0.25") && strings.HasSuffix(p.D, "Z") && strings.Count(p.D, "L") == 2*n-1 {
			bands++
		}
	}
	if bands != len(res.Learners) {
		t.Errorf("%d bands of %d vertices, want one per learner", bands, 2*n)
	}
	for l, info := range res.Learners {
		c := palette[l]
		stroke := fmt.Sprintf("stroke:#%02X%02X%02X;", c.R, c.G, c.B)
		lines := 0
		for _, p := range paths {
			if strings.Contains(p.Style, stroke) && strings.Contains(p.Style, "fill:none") && strings.Count(p.D, "L") == n-1 {
				lines++
				if dashed := strings.Contains(p.Style, "stroke-dasharray"); dashed != (info.Style != Solid) {
					t.Errorf("%s: line style %q for a %v learner", info.Name, p.Style, info.Style)
				}
			}
		}
		if lines != 1 {
			t.Errorf("%s: %d lines of %d points, want 1", info.Name, lines, n)
		}
	}
	if !bytes.Contains(b.Bytes(), []byte("iris (150 rows, 3 classes)")) || !bytes.Contains(b.Bytes(), []byte("log scale")) {
		t.Error("the plot lacks its title or axis label")
	}
}

// links matches the attributes of an HTML document that load or link
// something.
var links = regexp.MustCompile(`(?i)\b(src|href|srcset|action|data|poster)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)

func TestWriteReport(t *testing.T) {
	res := testResult(t)
	dir := filepath.Join(t.TempDir(), "out", "report")
	info := ReportInfo{Command: "gendisc compare --splits 5 --data 'a<b>'", Version: "v0.0.0-test", Notes: []string{"--variance feature"}}
	if err := WriteReport(dir, res, info); err != nil {
		t.Fatal(err)
	}
	want := append([]string{CurvesFile, IndexFile, SummaryFile}, res.PlotFiles()...)
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != "curves.csv index.html iris.svg summary.txt wine.svg" || len(want) != 5 {
		t.Errorf("report files %v", got)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("report directory mode %v", fi.Mode())
	}
	index, _ := os.ReadFile(filepath.Join(dir, IndexFile))
	for _, s := range []string{"gendisc compare --splits 5 --data &#39;a&lt;b&gt;&#39;", "v0.0.0-test", "--variance feature",
		`src="iris.svg"`, `src="wine.svg"`, "Random seed 1;", "5 splits per size", "<th>m*</th>", "<th>p (paired t-test)</th>", "fallbacks at m 6"} {
		if !bytes.Contains(index, []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	for _, m := range links.FindAllSubmatch(index, -1) {
		v := strings.Trim(string(m[2]), `"'`)
		if strings.Contains(v, ":") || strings.HasPrefix(v, "//") {
			t.Errorf("index.html refers to %s=%q, not a file beside it", m[1], v)
		}
		if _, err := os.Stat(filepath.Join(dir, v)); err != nil && !strings.HasPrefix(v, "#") {
			t.Errorf("index.html refers to %q, which is not in the report", v)
		}
	}
	if regexp.MustCompile(`(?i)<(script|link|iframe|object|embed)\b|url\(|@import`).Match(index) {
		t.Error("index.html loads something besides its images")
	}
	csv, _ := os.ReadFile(filepath.Join(dir, CurvesFile))
	var b bytes.Buffer
	res.WriteCSV(&b)
	if !bytes.Equal(csv, b.Bytes()) || !bytes.HasPrefix(csv, []byte("dataset,model,m,splits,mean_error,std_error,fallbacks,warnings\niris,nb,6,5,")) {
		t.Errorf("curves.csv:\n%s", csv)
	}
	for _, f := range res.PlotFiles() {
		svg, _ := os.ReadFile(filepath.Join(dir, f))
		parseSVG(t, svg)
	}

	// A second report replaces the first, and leaves nothing beside it.
	res.Seed = 99
	if err := WriteReport(dir, res, info); err != nil {
		t.Fatal(err)
	}
	index, _ = os.ReadFile(filepath.Join(dir, IndexFile))
	if !bytes.Contains(index, []byte("Random seed 99;")) {
		t.Error("the second report did not replace the first")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("files beside the report: %v", entries)
	}
}

// TestWriteReportRefuses checks that a directory holding something else,
// or a file, is not replaced, and that it is left as it was.
func TestWriteReportRefuses(t *testing.T) {
	res := testResult(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("mine"), 0o644)
	if err := WriteReport(dir, res, ReportInfo{}); err == nil {
		t.Error("WriteReport replaced a directory that holds no report")
	}
	if b, _ := os.ReadFile(other); string(b) != "mine" {
		t.Error("WriteReport changed a directory it refused")
	}
	if err := WriteReport(other, res, ReportInfo{}); err == nil {
		t.Error("WriteReport replaced a file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

// TestReportDeterministic checks that the same seed gives the same bytes
// in every file of the report, whatever the number of jobs.
func TestReportDeterministic(t *testing.T) {
	var files [2]map[string][]byte
	for i, jobs := range []int{1, 2} {
		_, res := runCSV(t, Config{Splits: 5, Seed: 4, Jobs: jobs}, stub("nb", Generative), stub("logistic", Discriminative))
		var err error
		if files[i], err = res.render(ReportInfo{Command: "c", Version: "v"}); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range files[0] {
		if !bytes.Equal(b, files[1][name]) {
			t.Errorf("%s differs between jobs = 1 and jobs = 2", name)
		}
	}
}

func TestSummary(t *testing.T) {
	res := &Result{
		Learners: []LearnerInfo{{Name: "nb"}, {Name: "logistic", Family: Discriminative}},
		Splits:   3,
		Tasks: []TaskResult{{
			Name: "toy", Rows: 100, Classes: []string{"a", "b"}, Sizes: []int{4, 40},
			Curves: []Curve{
				{"nb", []Point{{M: 4, Mean: .3, StdErr: .01, Fallbacks: 3}, {M: 40, Mean: .2, StdErr: .02}}},
				{"logistic", []Point{{M: 4, Mean: .4, StdErr: .03, Warnings: 2}, {M: 40, Mean: .125, StdErr: .005}}},
			},
			Crossovers: []Crossover{{Generative: "nb", Discriminative: "logistic", M: 40, P: .01, ClearFrom: 40, GapM: 40, Gap: .075}},
		}, {
			Name: "longer_name", Rows: 10, Classes: []string{"a", "b", "c"}, Sizes: []int{6},
			Curves: []Curve{
				{"nb", []Point{{M: 6, Mean: .1}}},
				{"logistic", []Point{{M: 6, Mean: .5}}},
			},
			Crossovers: []Crossover{{Generative: "nb", Discriminative: "logistic", P: 1, GapM: 6, Gap: -.4}},
		}, {
			Name: "unclear", Rows: 90, Classes: []string{"a", "b"}, Sizes: []int{5, 10, 20, 50},
			Curves: []Curve{
				{"nb", []Point{{M: 5, Mean: .3}, {M: 10, Mean: .3, Fallbacks: 1}, {M: 20, Mean: .3}, {M: 50, Mean: .3, Fallbacks: 2}}},
				{"logistic", []Point{{M: 5, Mean: .2}, {M: 10, Mean: .2}, {M: 20, Mean: .2}, {M: 50, Mean: .2}}},
			},
			Crossovers: []Crossover{{Generative: "nb", Discriminative: "logistic", M: 5, P: .06, GapM: 20, Gap: .1}},
		}, {
			Name: "later", Rows: 90, Classes: []string{"a", "b"}, Sizes: []int{5, 10, 20},
			Curves: []Curve{
				{"nb", []Point{{M: 5, Mean: .3}, {M: 10, Mean: .3}, {M: 20, Mean: .3}}},
				{"logistic", []Point{{M: 5, Mean: .29}, {M: 10, Mean: .2}, {M: 20, Mean: .2}}},
			},
			Crossovers: []Crossover{{Generative: "nb", Discriminative: "logistic", M: 5, P: .3, ClearFrom: 10, GapM: 20, Gap: .1}},
		}},
	}
	var b bytes.Buffer
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	want := `dataset      rows  classes  m     error nb                                   error logistic                     m* nb/logistic          gap nb−logistic
toy          100   2        4–40  0.2000 ± 0.0200 (3 fallbacks at m 4)       0.1250 ± 0.0050 (2 warned at m 4)  40                      +0.0750
longer_name  10    3        6–6   0.1000 ± 0.0000                            0.5000 ± 0.0000                    none                    -0.4000
unclear      90    2        5–50  0.3000 ± 0.0000 (3 fallbacks at m 10, 50)  0.2000 ± 0.0000                    5 (no clear crossover)  +0.1000 (m 20)
later        90    2        5–20  0.3000 ± 0.0000                            0.2000 ± 0.0000                    5 (clear from m = 10)   +0.1000
`
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestPlotLayout draws a plot with four learners and checks its layout:
// every text in Liberation Sans, the legend to the right of the data area,
// the first and last points and the highest band at least 5 points from
// the frame, the fallbacks hollow and a triangle at each m*.
func TestPlotLayout(t *testing.T) {
	res := layoutResult()
	rec := &vgrec.Canvas{}
	c := draw.NewCanvas(rec, plotWidth, plotHeight)
	if err := res.drawPlot(c, 0); err != nil {
		t.Fatal(err)
	}
	p, leg, err := res.plot(0)
	if err != nil {
		t.Fatal(err)
	}
	pc, lc := layout(c, p, leg)
	dc := p.DataCanvas(pc)
	var legend, hollow, triangles int
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *vgrec.FillString:
			if a.Font.Typeface != "Liberation" || a.Font.Variant != "Sans" {
				t.Errorf("%q in %v, want Liberation Sans", a.String, a.Font)
			}
			if slices.Contains([]string{"g1", "d1", "g2", "d2", "fit failed in some splits", "m*, not significant there", "clear: paired t-test p < 0.05 from here on"}, a.String) {
				legend++
				if a.Point.X < dc.Max.X+vg.Points(5) || a.Point.Y > dc.Max.Y {
					t.Errorf("legend entry %q at %v, inside the data area %v", a.String, a.Point, dc.Rectangle)
				}
			}
		}
	}
	if legend != 7 {
		t.Errorf("%d legend entries, want 7", legend)
	}
	if lc.Min.X < dc.Max.X {
		t.Errorf("legend column from x = %v, data area to %v", lc.Min.X, dc.Max.X)
	}
	sizes := res.Tasks[0].Sizes
	first, last := dc.X(p.X.Norm(float64(sizes[0]))), dc.X(p.X.Norm(float64(sizes[len(sizes)-1])))
	if first-dc.Min.X < vg.Points(5) || dc.Max.X-last < vg.Points(5) {
		t.Errorf("points from x = %v to %v in a frame from %v to %v: too close", first, last, dc.Min.X, dc.Max.X)
	}
	if top := dc.Y(p.Y.Norm(.5 + .05)); dc.Max.Y-top < vg.Points(5) {
		t.Errorf("the highest band reaches y = %v, the frame %v", top, dc.Max.Y)
	}
	var b bytes.Buffer
	if err := res.WriteSVG(&b, 0); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if strings.Contains(svg, "Serif") || !strings.Contains(svg, "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;") {
		t.Error("the SVG plot does not name the sans-serif fonts")
	}
	// Hollow dots: white discs; the two sizes where g1 fell back, and the
	// legend's.
	hollow = strings.Count(svg, "fill:#FFFFFF") - 1 // the background
	if hollow != 3 {
		t.Errorf("%d white discs, want 3 (two fallbacks, one in the legend)", hollow)
	}
	triangles = len(regexp.MustCompile(`M[^"]*L[^"]*L[^"]*Z`).FindAllString(svg, -1))
	if triangles < 4 {
		t.Errorf("%d closed three-point paths, want at least 4 (two m* marks, two in the legend)", triangles)
	}
}

// layoutResult is a task with two generative and two discriminative
// learners over three sizes: g1 fell back at the first two, and the
// crossovers of g1/d1 (clear) and g2/d2 (not clear) are at m = 100.
func layoutResult() *Result {
	ls := learnerInfos([]Learner{stub("g1", Generative), stub("d1", Discriminative), stub("g2", Generative), stub("d2", Discriminative)})
	pts := func(means ...float64) []Point {
		out := make([]Point, len(means))
		for i, m := range means {
			out[i] = Point{M: []int{10, 100, 1000}[i], Splits: 10, Mean: m, StdErr: .05}
		}
		return out
	}
	g1 := pts(.5, .4, .3)
	g1[0].Fallbacks, g1[1].Fallbacks = 10, 3
	return &Result{Learners: ls, Splits: 10, Tasks: []TaskResult{{
		Name: "toy", Rows: 2000, Classes: []string{"a", "b"}, Sizes: []int{10, 100, 1000},
		Curves: []Curve{{"g1", g1}, {"d1", pts(.45, .35, .2)}, {"g2", pts(.3, .3, .3)}, {"d2", pts(.4, .2, .1)}},
		Crossovers: []Crossover{
			{Generative: "g1", Discriminative: "d1", M: 1000, P: .001, ClearFrom: 1000, GapM: 1000, Gap: .1},
			{Generative: "g2", Discriminative: "d2", M: 100, P: .2, GapM: 1000, Gap: .2},
		},
	}}}
}

// TestCompareLogTicks: 1, 2 and 5 times the powers of ten are labelled on
// an axis of two decades at most, only the powers beyond.
func TestCompareLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	if got, want := labels(4, 400), []string{"5", "10", "20", "50", "100", "200"}; !slices.Equal(got, want) {
		t.Errorf("labels of 4..400: %v, want %v", got, want)
	}
	if got, want := labels(43, 14426), []string{"100", "1000", "10000"}; !slices.Equal(got, want) {
		t.Errorf("labels of 43..14426: %v, want %v", got, want)
	}
}
