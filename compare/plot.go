package compare

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
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

// Plot returns the learning curves of task t of r: mean test error
// against m on a logarithmic axis, one line per learner in its style and
// colour over a translucent band of ±1 standard error, with a legend.
func (r *Result) Plot(t int) (*plot.Plot, error) {
	task := r.Tasks[t]
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s (%d rows, %d classes)", task.Name, task.Rows, len(task.Classes))
	p.X.Label.Text = "training-set size m (log scale)"
	p.Y.Label.Text = fmt.Sprintf("test error, mean ± 1 s.e. over %d splits", r.Splits)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks{}
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(30)
	p.Add(plotter.NewGrid())
	top := 0.0
	for l, c := range task.Curves {
		col := palette[l%len(palette)]
		line, err := plotter.NewLine(meanXYs(c.Points))
		if err != nil {
			return nil, fmt.Errorf("compare: plot %s, %s: %w", task.Name, c.Learner, err)
		}
		line.Color = col
		line.Width = vg.Points(1.75)
		line.Dashes = r.Learners[l].Style.dashes()
		band, err := plotter.NewPolygon(bandXYs(c.Points))
		if err != nil {
			return nil, fmt.Errorf("compare: plot %s, %s: %w", task.Name, c.Learner, err)
		}
		band.Color = color.NRGBA{col.R, col.G, col.B, bandAlpha}
		band.LineStyle.Width = 0
		dots, err := plotter.NewScatter(meanXYs(c.Points))
		if err != nil {
			return nil, fmt.Errorf("compare: plot %s, %s: %w", task.Name, c.Learner, err)
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(1.75), Shape: draw.CircleGlyph{}}
		p.Add(band, line, dots)
		p.Legend.Add(c.Learner, line)
		for _, pt := range c.Points {
			top = math.Max(top, pt.Mean+pt.StdErr)
		}
	}
	// Headroom above the curves for the legend.
	p.Y.Min, p.Y.Max = 0, math.Max(top*1.25, 0.01)
	return p, nil
}

// WriteSVG writes the plot of task t of r as an SVG document.
func (r *Result) WriteSVG(w io.Writer, t int) error {
	p, err := r.Plot(t)
	if err != nil {
		return err
	}
	wt, err := p.WriterTo(plotWidth, plotHeight, "svg")
	if err != nil {
		return fmt.Errorf("compare: plot %s: %w", r.Tasks[t].Name, err)
	}
	_, err = wt.WriteTo(w)
	return err
}

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
// multiples.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for p := 1.0; p <= hi; p *= 10 {
		for k := 1; k < 10; k++ {
			v := float64(k) * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if k == 1 || k == 2 || k == 5 {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
