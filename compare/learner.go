package compare

import (
	"fmt"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Family says whether a learner models the joint p(x, y) (generative) or
// the conditional P(y | x) (discriminative). Crossovers are reported for
// every pair of a generative and a discriminative learner.
type Family int

const (
	// Generative learners model p(x, y) = p(y) p(x | y): naive Bayes,
	// LDA, QDA, MDA.
	Generative Family = iota
	// Discriminative learners model P(y | x): logistic regression.
	Discriminative
)

// String returns "generative" or "discriminative".
func (f Family) String() string {
	if f == Discriminative {
		return "discriminative"
	}
	return "generative"
}

// Style is the line pattern of a learner's curve in the plots.
type Style int

const (
	// Auto draws the first generative learner solid, the first
	// discriminative one dashed and the others with the remaining
	// patterns in order.
	Auto Style = iota
	// Solid is an unbroken line.
	Solid
	// Dashed is 7 pt dashes and 4 pt gaps.
	Dashed
	// Dotted is 1.5 pt dots and 3 pt gaps.
	Dotted
	// DashDot alternates 7 pt dashes and 1.5 pt dots.
	DashDot
	// LongDash is 14 pt dashes and 5 pt gaps.
	LongDash
)

// String returns the style's name, such as "dashed".
func (s Style) String() string {
	names := [...]string{"auto", "solid", "dashed", "dotted", "dash-dotted", "long-dashed"}
	if s < 0 || int(s) >= len(names) {
		return fmt.Sprintf("Style(%d)", int(s))
	}
	return names[s]
}

// Learner is one model of the comparison: a name for the report and a
// function that fits it on a training set.
type Learner struct {
	// Name labels the learner in curves.csv, the table and the legend,
	// such as "nb" or "logistic". Names must be distinct and non-empty.
	Name string
	// Family places the learner in the generative-discriminative pairs.
	Family Family
	// Style is the line pattern of its curve; Auto by default.
	Style Style
	// Settings describes the hyperparameters for the report, such as
	// "λ = 1, standardised features"; it may be empty.
	Settings string
	// Tuned names the flags whose values Fit chooses on every training
	// set, in the order of TunedModel.Values (its models are *TunedModel,
	// see Tuning); nil for fixed settings. The chosen values are
	// summarised per size (Point.Tuned).
	Tuned []string
	// Fit fits the learner on training rows. It is called from several
	// goroutines at once and must not keep d after returning a model that
	// does not need it. An error makes the split score the fallback
	// prediction (see the package documentation).
	Fit func(d *data.Dataset) (gendisc.Classifier, error)
}

// Task is one data set of the comparison.
type Task struct {
	// Name labels the task in the report, such as "sonar" or
	// "optdigits_0_vs_1".
	Name string
	// Data holds the rows; the target must be categorical with at least
	// two classes. Rows with a missing target are left out.
	Data *data.Dataset
}

// checkLearners returns an error for an empty list, a nil Fit, an empty
// or repeated name.
func checkLearners(ls []Learner) error {
	return checkNames(len(ls), func(i int) (string, bool) { return ls[i].Name, ls[i].Fit != nil })
}

// checkNames returns an error for n = 0 learners, or a learner (learner(i)
// gives its name and whether it has a Fit function) without a Fit, with
// an empty or repeated name.
func checkNames(n int, learner func(i int) (name string, fits bool)) error {
	if n == 0 {
		return fmt.Errorf("compare: no learners")
	}
	seen := map[string]bool{}
	for i := range n {
		name, fits := learner(i)
		switch {
		case name == "":
			return fmt.Errorf("compare: a learner has no name")
		case seen[name]:
			return fmt.Errorf("compare: learner %q appears twice", name)
		case !fits:
			return fmt.Errorf("compare: learner %q has no Fit function", name)
		}
		seen[name] = true
	}
	return nil
}
