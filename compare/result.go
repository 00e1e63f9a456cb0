package compare

import (
	"fmt"
	"math"
	"slices"
)

// Result holds the learning curves of a Run.
type Result struct {
	// Learners are the learners in the order Run was given them, with
	// Fit left out.
	Learners []LearnerInfo
	// Tasks are the tasks in the order Run was given them.
	Tasks []TaskResult
	// Unit is what the training-set size m and TaskResult.Rows count:
	// "" for rows (Run) or "sentences" (RunSequences).
	Unit string
	// Splits, MaxTest, MaxSize and Seed are the settings used (defaults
	// applied); Sizes is Config.Sizes, nil for the default grid.
	Splits, MaxTest, MaxSize int
	Seed                     uint64
	Sizes                    []int
}

// LearnerInfo describes a learner of a Result.
type LearnerInfo struct {
	Name     string
	Family   Family
	Style    Style // never Auto: the pattern the plots use
	Settings string
	Tuned    []string // Learner.Tuned
}

// TaskResult holds the curves of one task.
type TaskResult struct {
	Name string
	Rows int // labelled rows (sentences: Result.Unit)
	// TestName and TestRows name and count the test sentences of a
	// sequence task that has its own (SequenceTask.Test); "" and 0 when
	// the test sets are held out of Rows.
	TestName string
	TestRows int
	Classes  []string // class names
	Sizes    []int    // the training-set sizes, increasing
	// Curves[l] is the curve of Result.Learners[l].
	Curves []Curve
	// Crossovers holds one entry per pair of a generative and a
	// discriminative learner, generative learners in order, then
	// discriminative ones.
	Crossovers []Crossover
	// Untuned, set by SetUntuned, holds the crossovers of the same pairs
	// at fixed settings on the same splits, in the order of Crossovers,
	// and UntunedCurves the curves of that run, in the order of Curves.
	Untuned       []Crossover
	UntunedCurves []Curve
}

// Curve is the learning curve of one learner on one task: one Point per
// size of TaskResult.Sizes.
type Curve struct {
	Learner string
	Points  []Point
}

// Point is the test error of a learner at one training-set size, over the
// splits.
type Point struct {
	M      int     // training rows
	Splits int     // splits averaged
	Mean   float64 // mean test error
	StdErr float64 // standard error of Mean, 0 for one split
	// Fallbacks counts the splits in which the fit failed and the
	// majority class of the training rows was predicted instead.
	Fallbacks int
	// Warnings counts the splits in which the fit succeeded but warned:
	// the model has a Warnings() []string method that returned lines
	// (logistic regression that did not converge or ran into separable
	// data; naive Bayes and mixtures likewise). The split's error is the
	// model's, as in any other split.
	Warnings int
	// Tuned summarises the values chosen on the splits' training sets
	// for a learner with Learner.Tuned, one per flag tuned; nil for the
	// others. A split whose fit failed counts as one of the default
	// setting.
	Tuned []TunedSummary
}

// Crossover compares a generative and a discriminative learner on a task.
//
// Sizes at which either learner fell back to the majority class in some
// split (Point.Fallbacks > 0) do not count: M, P and Gap come from the
// other sizes only.
type Crossover struct {
	Generative, Discriminative string // learner names
	// M is m*, the smallest size from which the discriminative learner's
	// mean error stays strictly below the generative one's through the
	// largest size (FindCrossover); 0 when there is none in range.
	M int
	// P is the p-value of the claim that the discriminative learner is
	// better at every size from M on: the largest, over those sizes, of
	// the one-sided paired t-test of the per-split differences of the
	// test errors (PairedTTest), an intersection-union test, valid at the
	// level of each of its tests. 1 when M is 0.
	P float64
	// ClearFrom is the smallest size from which the one-sided paired
	// t-test finds the discriminative learner better at level Alpha at
	// every size through the largest (PairedTTest p < Alpha at each);
	// 0 when the test is not significant at the largest size. A
	// significant size has the discriminative mean below the generative
	// one, so ClearFrom ≥ M when it is set: the means cross at m*, and
	// with few splits the test, weak where the curves are close, becomes
	// significant a few sizes later.
	ClearFrom int
	// GapM is the largest size without fallbacks, 0 when every size had
	// some; Gap is the generative minus the discriminative mean error
	// there (NaN when GapM is 0): positive when the discriminative
	// learner ends ahead.
	GapM int
	Gap  float64
}

// Alpha is the level at which a crossover is clear: Crossover.P < Alpha.
const Alpha = 0.05

// Found reports whether there is a crossover in range.
func (c Crossover) Found() bool { return c.M > 0 }

// Clear reports whether the crossover is clear at some size: the
// discriminative learner is significantly better at every size from
// ClearFrom on. It is clear from m* itself when ClearFrom == M (then
// P < Alpha).
func (c Crossover) Clear() bool { return c.ClearFrom > 0 }

// FindCrossover returns m* for the curves g (generative) and d
// (discriminative), which must have the same sizes: the M of the first
// point from which every mean of d is strictly below that of g, or 0 when
// d is not below g at the last point (or the curves are empty). Points
// where g or d has fallbacks are left out: they neither start nor break
// the run, and the last point is the last without fallbacks.
func FindCrossover(g, d []Point) int {
	m := 0
	for i := len(g) - 1; i >= 0; i-- {
		if g[i].Fallbacks > 0 || d[i].Fallbacks > 0 {
			continue
		}
		if d[i].Mean >= g[i].Mean {
			break
		}
		m = g[i].M
	}
	return m
}

// unit returns Unit, "rows" when it is empty.
func (r *Result) unit() string {
	if r.Unit == "" {
		return "rows"
	}
	return r.Unit
}

// summarise turns the test errors of the plans into a Result.
func summarise(plans []*taskPlan, learners []Learner, cfg Config) *Result {
	S, L := cfg.splits(), len(learners)
	r := &Result{Learners: learnerInfos(learners), Splits: S, MaxTest: cfg.maxTest(),
		MaxSize: cfg.maxSize(), Seed: cfg.Seed, Sizes: slices.Clone(cfg.Sizes)}
	for _, p := range plans {
		tr := TaskResult{Name: p.name, Classes: p.classes, Sizes: p.sizes, Rows: p.rows}
		for l, ln := range learners {
			c := Curve{Learner: ln.Name, Points: make([]Point, len(p.sizes))}
			for i, m := range p.sizes {
				pt := Point{M: m, Splits: S}
				var sum float64
				for s := range S {
					at := (i*S+s)*L + l
					sum += p.errs[at]
					if p.fell[at] {
						pt.Fallbacks++
					}
					if p.warned[at] {
						pt.Warnings++
					}
				}
				pt.Mean = sum / float64(S)
				for j, name := range ln.Tuned {
					vs := make([]float64, S)
					for s := range S {
						vs[s] = math.NaN()
						if v := p.tuned[(i*S+s)*L+l]; v != nil {
							vs[s] = v[j]
						}
					}
					pt.Tuned = append(pt.Tuned, summariseTuned(name, vs))
				}
				if S > 1 {
					var ss float64
					for s := range S {
						e := p.errs[(i*S+s)*L+l] - pt.Mean
						ss += e * e
					}
					pt.StdErr = math.Sqrt(ss/float64(S-1)) / math.Sqrt(float64(S))
				}
				c.Points[i] = pt
			}
			tr.Curves = append(tr.Curves, c)
		}
		tr.Crossovers = crossovers(r.Learners, tr.Curves, func(l, i int) []float64 {
			e := make([]float64, S)
			for s := range S {
				e[s] = p.errs[(i*S+s)*L+l]
			}
			return e
		})
		r.Tasks = append(r.Tasks, tr)
	}
	return r
}

// crossovers compares every generative learner with every discriminative
// one, in the order of pairs; errs(l, i) returns the test errors of
// learner l at size i, one per split, in the order of the splits.
func crossovers(ls []LearnerInfo, curves []Curve, errs func(l, i int) []float64) []Crossover {
	var out []Crossover
	for _, p := range pairs(ls) {
		g, d := curves[p[0]].Points, curves[p[1]].Points
		x := Crossover{Generative: ls[p[0]].Name, Discriminative: ls[p[1]].Name,
			M: FindCrossover(g, d), P: 1, Gap: math.NaN()}
		if x.Found() {
			x.P = 0 // the maximum over the sizes from M on, M among them
		}
		significant := true // at every size from i on, so far
		for i := len(g) - 1; i >= 0; i-- {
			if g[i].Fallbacks > 0 || d[i].Fallbacks > 0 {
				continue
			}
			if x.GapM == 0 {
				x.GapM, x.Gap = g[i].M, g[i].Mean-d[i].Mean
			}
			if x.M == 0 || g[i].M < x.M {
				continue
			}
			eg, ed := errs(p[0], i), errs(p[1], i)
			for s := range eg {
				eg[s] -= ed[s]
			}
			pv := PairedTTest(eg)
			x.P = max(x.P, pv)
			if significant = significant && pv < Alpha; significant {
				x.ClearFrom = g[i].M
			}
		}
		out = append(out, x)
	}
	return out
}

// pairs returns the indices of every generative learner with every
// discriminative one, generative learners in order, then discriminative
// ones.
func pairs(ls []LearnerInfo) [][2]int {
	var out [][2]int
	for g, lg := range ls {
		for d, ld := range ls {
			if lg.Family == Generative && ld.Family == Discriminative {
				out = append(out, [2]int{g, d})
			}
		}
	}
	return out
}

// learnerInfos describes the learners, resolving Auto styles: the first
// generative learner is solid, the first discriminative one dashed, and
// every other Auto learner takes Dotted, DashDot and LongDash in turn
// (cycling); the first ones fall back to that too when another learner
// chose Solid (Dashed) explicitly. Colours tell curves apart as well.
func learnerInfos(ls []Learner) []LearnerInfo {
	out := make([]LearnerInfo, len(ls))
	taken := map[Style]bool{}
	for _, l := range ls {
		taken[l.Style] = true
	}
	first := map[Family]bool{}
	others := []Style{Dotted, DashDot, LongDash}
	next := 0
	for i, l := range ls {
		st := l.Style
		switch {
		case st != Auto:
		case !first[l.Family] && l.Family == Generative && !taken[Solid]:
			st = Solid
		case !first[l.Family] && l.Family == Discriminative && !taken[Dashed]:
			st = Dashed
		default:
			st = others[next%len(others)]
			next++
		}
		first[l.Family] = true
		out[i] = LearnerInfo{Name: l.Name, Family: l.Family, Style: st, Settings: l.Settings, Tuned: l.Tuned}
	}
	return out
}

// SetUntuned records in r, a run with tuned learners, the crossovers and
// the curves of u, the run of the same tasks, sizes, splits and seed with
// the learners at their fixed settings (TaskResult.Untuned and
// UntunedCurves), so that the report shows how tuning moves the curves
// and m*. The two runs must have the same tasks, sizes, learners and
// pairs.
func (r *Result) SetUntuned(u *Result) error {
	if len(u.Tasks) != len(r.Tasks) || u.Splits != r.Splits || u.Seed != r.Seed {
		return fmt.Errorf("compare: the untuned run has other tasks or splits")
	}
	for t := range r.Tasks {
		a, b := &r.Tasks[t], u.Tasks[t]
		if a.Name != b.Name || !slices.Equal(a.Sizes, b.Sizes) || len(a.Crossovers) != len(b.Crossovers) ||
			!slices.EqualFunc(a.Curves, b.Curves, func(x, y Curve) bool { return x.Learner == y.Learner }) {
			return fmt.Errorf("compare: %s: the untuned run has other sizes or models", a.Name)
		}
		for i, x := range b.Crossovers {
			if y := a.Crossovers[i]; x.Generative != y.Generative || x.Discriminative != y.Discriminative {
				return fmt.Errorf("compare: %s: the untuned run compares %s/%s, not %s/%s", a.Name, x.Generative, x.Discriminative, y.Generative, y.Discriminative)
			}
		}
	}
	for t := range r.Tasks {
		r.Tasks[t].Untuned, r.Tasks[t].UntunedCurves = u.Tasks[t].Crossovers, u.Tasks[t].Curves
	}
	return nil
}

// HasUntuned reports whether SetUntuned gave r the untuned crossovers.
func (r *Result) HasUntuned() bool { return len(r.Tasks) > 0 && r.Tasks[0].Untuned != nil }
