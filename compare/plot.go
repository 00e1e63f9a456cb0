package compare

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot size in the report.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// palette colours the learners in order (Okabe and Ito's colour-blind
// safe palette).
var palette = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
}

// bandAlpha is the opacity of the standard-error bands.
const bandAlpha = 0x40

// dashes returns the dash pattern of a style (nil for a solid line).
func (s Style) dashes() []vg.Length {
	switch s {
	case Dashed:
		return []vg.Length{vg.Points(7), vg.Points(4)}
	case Dotted:
		return []vg.Length{vg.Points(1.5), vg.Points(3)}
	case DashDot:
		return []vg.Length{vg.Points(7), vg.Points(3), vg.Points(1.5), vg.Points(3)}
	case LongDash:
		return []vg.Length{vg.Points(14), vg.Points(5)}
	}
	return nil
}

// sans is the font of the plots: Liberation Sans, which gonum/plot
// embeds and whose metrics are those of Arial and Helvetica.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// svgFonts is the font-family of the SVG plots, which name Liberation Sans
// and then the fonts with the same metrics, so that a browser without it
// draws the text in a sans-serif font of the same widths.
var svgFonts = [2][]byte{[]byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")}

// Glyphs of the plots.
var (
	pointGlyph = draw.GlyphStyle{Radius: vg.Points(1.75), Shape: draw.CircleGlyph{}}
	// fallbackGlyph marks a size where the learner fell back in some split.
	fallbackGlyph = draw.GlyphStyle{Radius: vg.Points(3), Shape: hollowGlyph{}}
	// clearGlyph marks a clear m*, unclearGlyph one that is not.
	clearGlyph   = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.5), Shape: draw.PyramidGlyph{}}
	unclearGlyph = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.5), Shape: draw.TriangleGlyph{}}
)

// hollowGlyph is a white disc in a ring of the glyph's colour.
type hollowGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (hollowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.SetColor(color.White)
	c.Fill(p)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.25)})
	c.Stroke(p)
}

// glyphThumb draws a glyph alone as a legend thumbnail.
type glyphThumb draw.GlyphStyle

// Thumbnail implements plot.Thumbnailer.
func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle(g), c.Center())
}

// plot returns the learning curves of task t of r and their legend: mean
// test error against m on a logarithmic axis, one line per learner in its
// style and colour over a translucent band of ±1 standard error, a dot
// per size, hollow where the learner fell back in some split, and a
// triangle on the discriminative learner's curve at each m*, filled when
// the crossover is clear from there (Crossover.ClearFrom == M), outlined
// when it is not, with a filled one where it becomes clear when that is
// later. A tuned run with its untuned run (SetUntuned) adds the untuned
// curve of every tuned learner in the learner's style, a lighter shade of
// its colour and thinner, without a band, and the untuned m* as grey
// triangles on the untuned curves, so that the plot shows how tuning
// moves the curves and the crossover.
func (r *Result) plot(t int) (*plot.Plot, *plot.Legend, error) {
	task := r.Tasks[t]
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%d %s, %d classes)", task.Name, task.Rows, r.unit(), len(task.Classes))
	if task.TestName != "" {
		p.Title.Text += fmt.Sprintf("\ntested on %s (%d %s)", task.TestName, task.TestRows, r.unit())
	}
	p.Title.TextStyle.Font = font.From(sans, 12)
	p.X.Label.Text = "training-set size m (log scale)"
	if r.Unit != "" {
		p.X.Label.Text = "training-set size m, " + r.Unit + " (log scale)"
	}
	p.Y.Label.Text = fmt.Sprintf("test error, mean ± 1 s.e. over %d splits", r.Splits)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(sans, 10)
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = vg.Points(30)
	leg.Padding = vg.Points(2)
	p.Add(plotter.NewGrid())
	top := 0.0
	fell := false
	for l, c := range task.Curves {
		col := palette[l%len(palette)]
		if err := addCurve(p, &leg, c, c.Learner, col, r.Learners[l].Style, true); err != nil {
			return nil, nil, fmt.Errorf("compare: plot %s, %s: %w", task.Name, c.Learner, err)
		}
		for _, pt := range c.Points {
			top = math.Max(top, pt.Mean+pt.StdErr)
			fell = fell || pt.Fallbacks > 0
		}
	}
	for l, c := range task.UntunedCurves {
		if r.Learners[l].Tuned == nil {
			continue // the same curve as the tuned run's
		}
		if err := addCurve(p, &leg, c, c.Learner+", untuned", lighter(palette[l%len(palette)]), r.Learners[l].Style, false); err != nil {
			return nil, nil, fmt.Errorf("compare: plot %s, %s untuned: %w", task.Name, c.Learner, err)
		}
		for _, pt := range c.Points {
			top = math.Max(top, pt.Mean)
			fell = fell || pt.Fallbacks > 0
		}
	}
	if fell {
		g := fallbackGlyph
		g.Color = color.Black
		leg.Add("fit failed in some splits", glyphThumb(g))
	}
	marks := []struct {
		xs     []Crossover
		cs     []Curve
		glyphs [2]draw.GlyphStyle // clear, not clear
		labels [2]string
	}{
		{task.Crossovers, task.Curves, [2]draw.GlyphStyle{clearGlyph, unclearGlyph},
			[2]string{fmt.Sprintf("clear: paired t-test p < %g from here on", Alpha), "m*, not significant there"}},
		{task.Untuned, task.UntunedCurves, [2]draw.GlyphStyle{grey(clearGlyph), grey(unclearGlyph)},
			[2]string{"untuned: clear from here on", "untuned m*, not significant there"}},
	}
	for _, mk := range marks {
		xy := crossoverMarks(task.Sizes, mk.xs, mk.cs)
		for k, g := range mk.glyphs {
			if len(xy[k]) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(xy[k])
			if err != nil {
				return nil, nil, fmt.Errorf("compare: plot %s: %w", task.Name, err)
			}
			sc.GlyphStyle = g
			p.Add(sc)
			leg.Add(mk.labels[k], glyphThumb(g))
		}
	}
	// Room between the curves and the frame: the axes' ends are 15% beyond
	// the sizes (on the log scale) and 8% above the highest band.
	p.X.Min, p.X.Max = float64(task.Sizes[0])/1.15, float64(task.Sizes[len(task.Sizes)-1])*1.15
	p.Y.Min, p.Y.Max = 0, math.Max(top*1.08, 0.01)
	return p, &leg, nil
}

// addCurve adds the curve c to p and its legend entry, label, to leg: a
// line in colour col and style st over a translucent band of ±1 standard
// error, 1.75 points wide, with band; without, 1 point wide; and a dot per
// size, hollow where the learner fell back in some split.
func addCurve(p *plot.Plot, leg *plot.Legend, c Curve, label string, col color.NRGBA, st Style, band bool) error {
	line, err := plotter.NewLine(meanXYs(c.Points))
	if err != nil {
		return err
	}
	line.Color = col
	line.Width = vg.Points(1)
	line.Dashes = st.dashes()
	if band {
		line.Width = vg.Points(1.75)
		poly, err := plotter.NewPolygon(bandXYs(c.Points))
		if err != nil {
			return err
		}
		poly.Color = color.NRGBA{col.R, col.G, col.B, bandAlpha}
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	dots, err := plotter.NewScatter(meanXYs(c.Points))
	if err != nil {
		return err
	}
	dots.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		g := pointGlyph
		if c.Points[i].Fallbacks > 0 {
			g = fallbackGlyph
		}
		g.Color = col
		return g
	}
	p.Add(line, dots)
	dot := pointGlyph
	dot.Color = col
	leg.Add(label, line, glyphThumb(dot))
	return nil
}

// crossoverMarks returns where the triangles of the crossovers xs go on
// the curves cs of the sizes: [0] where a crossover is clear from (m*
// itself, or the later size where it becomes clear), [1] at an m* that is
// not significant there; on the discriminative learner's curve.
func crossoverMarks(sizes []int, xs []Crossover, cs []Curve) [2]plotter.XYs {
	var marks [2]plotter.XYs
	for _, x := range xs {
		if !x.Found() {
			continue
		}
		d := slices.IndexFunc(cs, func(c Curve) bool { return c.Learner == x.Discriminative })
		at := func(m int) plotter.XY {
			return plotter.XY{X: float64(m), Y: cs[d].Points[slices.Index(sizes, m)].Mean}
		}
		if x.ClearFrom == x.M {
			marks[0] = append(marks[0], at(x.M))
			continue
		}
		marks[1] = append(marks[1], at(x.M))
		if x.Clear() {
			marks[0] = append(marks[0], at(x.ClearFrom))
		}
	}
	return marks
}

// lighter returns col halfway to white: the colour of an untuned curve.
func lighter(col color.NRGBA) color.NRGBA {
	mix := func(v uint8) uint8 { return v + (0xff-v)/2 }
	return color.NRGBA{mix(col.R), mix(col.G), mix(col.B), col.A}
}

// grey returns g in grey: the glyph of an untuned crossover.
func grey(g draw.GlyphStyle) draw.GlyphStyle {
	g.Color = color.NRGBA{0x88, 0x88, 0x88, 0xff}
	return g
}

// drawPlot draws the plot of task t of r on c (layout).
func (r *Result) drawPlot(c draw.Canvas, t int) error {
	p, leg, err := r.plot(t)
	if err != nil {
		return err
	}
	pc, lc := layout(c, p, leg)
	p.Draw(pc)
	leg.Draw(lc)
	return nil
}

// layout splits c between the plot and its legend: the legend in a column
// at the right, level with the top of the axes, so that it covers no data.
func layout(c draw.Canvas, p *plot.Plot, leg *plot.Legend) (pc, lc draw.Canvas) {
	pad := vg.Points(10)
	w := leg.Rectangle(c).Size().X + pad
	pc, lc = draw.Crop(c, 0, -w, 0, 0), c
	lc.Min.X = c.Max.X - w + pad/2
	lc.Max.Y -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	return pc, lc
}

// PlotFormats are the formats WritePlot writes.
var PlotFormats = []string{"svg", "pdf", "png"}

// WritePlot writes the plot of task t of r in a format of PlotFormats:
// "svg", "pdf" or "png" (96 dots per inch). It is what WriteSVG writes for
// "svg". A PDF document carries the time it was written (its creation
// date); the other formats depend on r and t only.
func (r *Result) WritePlot(w io.Writer, t int, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("compare: plot format %q: want one of %s", format, strings.Join(PlotFormats, ", "))
	}
	cw, err := draw.NewFormattedCanvas(plotWidth, plotHeight, format)
	if err != nil {
		return fmt.Errorf("compare: plot %s: %w", r.Tasks[t].Name, err)
	}
	if err := r.drawPlot(draw.New(cw), t); err != nil {
		return err
	}
	if format != "svg" {
		_, err = cw.WriteTo(w)
		return err
	}
	var b bytes.Buffer
	if _, err := cw.WriteTo(&b); err != nil {
		return err
	}
	_, err = w.Write(bytes.ReplaceAll(b.Bytes(), svgFonts[0], svgFonts[1]))
	return err
}

// WriteSVG writes the plot of task t of r as an SVG document (WritePlot
// with "svg").
func (r *Result) WriteSVG(w io.Writer, t int) error { return r.WritePlot(w, t, "svg") }

func meanXYs(pts []Point) plotter.XYs {
	xy := make(plotter.XYs, len(pts))
	for i, p := range pts {
		xy[i] = plotter.XY{X: float64(p.M), Y: p.Mean}
	}
	return xy
}

// bandXYs is the outline of the band mean ± standard error: the upper
// edge left to right, then the lower edge (cut at 0) right to left.
func bandXYs(pts []Point) plotter.XYs {
	n := len(pts)
	xy := make(plotter.XYs, 2*n)
	for i, p := range pts {
		xy[i] = plotter.XY{X: float64(p.M), Y: p.Mean + p.StdErr}
		xy[2*n-1-i] = plotter.XY{X: float64(p.M), Y: math.Max(p.Mean-p.StdErr, 0)}
	}
	return xy
}

// logTicks marks a logarithmic axis of positive integers: labelled ticks
// at 1, 2 and 5 times the powers of ten, unlabelled ones at the other
// multiples; on an axis of more than two decades (hi > 100 lo) only the
// powers of ten are labelled, whose neighbours' labels would run into
// each other at the plot's width.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	labelled := []int{1, 2, 5}
	if hi > 100*lo {
		labelled = []int{1}
	}
	var ts []plot.Tick
	for p := 1.0; p <= hi; p *= 10 {
		for k := 1; k < 10; k++ {
			v := float64(k) * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if slices.Contains(labelled, k) {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
