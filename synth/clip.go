package synth

import (
	"errors"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
)

// DefaultTries is the number of draws of one row a Clip makes before it
// falls back to clamping (Clip.Tries).
const DefaultTries = 1000

// ErrNoRange is returned by TrainingClip for a schema without the
// training range of a numeric feature.
var ErrNoRange = errors.New("no training range")

// Clip truncates the numeric features of drawn rows to intervals by
// rejection: a row is drawn again, whole (features and, for a draw from
// the joint p(x, y), its class or component), until every feature j lies
// in [Lo[j], Hi[j]]. The accepted rows follow the model's law conditioned
// on the box B = Π_j [Lo[j], Hi[j]]:
//
//	p(x, y | x ∈ B) = p(x, y) 1{x ∈ B} / P(x ∈ B),
//
// p(x | y = c, x ∈ B) for the draws of one class, and not a law with
// mass piled up at the bounds. Rejecting the whole vector is what a
// Gaussian with a full covariance (LDA, QDA, a full-covariance mixture)
// needs; for features independent given the class (naive Bayes, diagonal
// covariances) it gives the same law as rejecting each coordinate on its
// own, at a cost of 1 / P(x ∈ B | y) draws per row on average.
//
// The number of draws is bounded: after Tries draws of one row that all
// fall outside the box, the last one is clamped, each value outside its
// interval set to the nearest bound, and the row counted in Clamped.
// Note says so. Draws, Rows and Clamped accumulate over the calls that use
// the Clip; Rows / Draws estimates the acceptance P(x ∈ B). In Impute, the
// rows are those with a missing cell in a bounded feature, and only their
// drawn cells are truncated.
type Clip struct {
	// Lo and Hi bound feature j to [Lo[j], Hi[j]]; ±Inf leave a side
	// free. A cell that is NaN (a feature not drawn, such as text) is in
	// the box.
	Lo, Hi []float64
	// Tries is the number of draws of one row before the fallback;
	// 0 means DefaultTries.
	Tries int
	// Draws counts the rows drawn, Rows those produced, Clamped those
	// produced by the fallback.
	Draws, Rows, Clamped int
}

// TrainingClip returns a Clip to the training ranges of the numeric
// features of s (data.Column.Range); the other features are free, and so
// is a feature with no value in training (an empty range), which the
// models do not draw. It
// returns an error wrapping ErrNoRange that names the first numeric
// feature whose range s lacks (the schema of a model file written before
// ranges were kept).
func TrainingClip(s *data.Schema) (*Clip, error) {
	c := &Clip{Lo: make([]float64, len(s.Features)), Hi: make([]float64, len(s.Features))}
	for j, f := range s.Features {
		c.Lo[j], c.Hi[j] = math.Inf(-1), math.Inf(1)
		if f.Kind != data.Numeric {
			continue
		}
		switch {
		case f.Range == nil:
			return nil, fmt.Errorf("synth: feature %q: %w", f.Name, ErrNoRange)
		case !f.Range.Empty():
			c.Lo[j], c.Hi[j] = f.Range.Min, f.Range.Max
		}
	}
	return c, nil
}

// draw calls draw, which writes a row to x, until the row lies in the box,
// at most Tries times; then it clamps the last row to the box.
func (c *Clip) draw(x []float64, draw func()) {
	tries := c.Tries
	if tries <= 0 {
		tries = DefaultTries
	}
	c.Rows++
	for range tries {
		draw()
		c.Draws++
		if c.inside(x) {
			return
		}
	}
	for j, v := range x {
		x[j] = max(c.Lo[j], min(v, c.Hi[j]))
	}
	c.Clamped++
}

// drawn reports whether the row orig has a missing cell in a bounded
// feature: one that imputation draws and the Clip bounds.
func (c *Clip) drawn(orig []float64) bool {
	for j, v := range orig {
		if v != v && (!math.IsInf(c.Lo[j], -1) || !math.IsInf(c.Hi[j], 1)) {
			return true
		}
	}
	return false
}

// insideDrawn reports whether the cells of x that are missing in orig lie
// in their intervals.
func (c *Clip) insideDrawn(x, orig []float64) bool {
	for j, v := range orig {
		if v != v && (x[j] < c.Lo[j] || x[j] > c.Hi[j]) {
			return false
		}
	}
	return true
}

// inside reports whether every cell of x lies in its interval (NaN does).
func (c *Clip) inside(x []float64) bool {
	for j, v := range x {
		if v < c.Lo[j] || v > c.Hi[j] {
			return false
		}
	}
	return true
}

// Note returns a one-line account of the fallback, "" when every row was
// accepted.
func (c *Clip) Note() string {
	if c.Clamped == 0 {
		return ""
	}
	tries := c.Tries
	if tries <= 0 {
		tries = DefaultTries
	}
	return fmt.Sprintf("%d of %d rows had no draw in the training range in %d tries (acceptance %.3g): their values outside it were set to the nearest bound",
		c.Clamped, c.Rows, tries, c.Acceptance())
}

// Acceptance returns the share of draws that fell in the box, counting
// the last draw of a clamped row as rejected: (Rows − Clamped) / Draws,
// NaN before any draw.
func (c *Clip) Acceptance() float64 {
	return float64(c.Rows-c.Clamped) / float64(c.Draws)
}
