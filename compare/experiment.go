package compare

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// DefaultProbeRows is the most rows of a task that Plan fits the models on
// to find out whether they apply to it.
const DefaultProbeRows = 2000

// Model is a model that an experiment may compare, before it is known
// whether it applies to the tasks: its name, the text stating its
// settings, and the function that fits it. Plan turns the Models that
// apply to some task into Learners.
type Model struct {
	// Name labels the model, as Learner.Name.
	Name string
	// Settings states the settings the model is fitted with, for the
	// report (Learner.Settings); it may be empty.
	Settings string
	// Fit fits the model on training rows; the model must classify
	// (gendisc.Classifier). It is called from several goroutines at once.
	// An error on a task's probe rows means that the model does not apply
	// to the task (its columns, its target or its classes are ones the
	// model cannot take); the error says why.
	Fit func(d *data.Dataset) (gendisc.Model, error)
	// Tuned names the flags that Fit chooses on every training set (a
	// Tuning's), as Learner.Tuned; nil for fixed settings.
	Tuned []string
}

// PlanOptions says what Plan does with a task or a model that does not
// take part.
type PlanOptions struct {
	// RequireTasks makes a task that none of the models applies to an
	// error (*TaskNotApplicableError); otherwise the task is left out
	// with a note.
	RequireTasks bool
	// RequireModels makes a model that applies to none of the tasks an
	// error (*ModelNotApplicableError); otherwise the model is left out
	// with a note.
	RequireModels bool
	// ProbeRows is the most rows of a task that the models are fitted on
	// to find out whether they apply to it, spread evenly over the task;
	// 0 means DefaultProbeRows.
	ProbeRows int
	// Describe words the reason why a model does not apply to a task in
	// the notes and in TaskNotApplicableError.Why (a command line adds
	// the flags that would help); nil means the error's message on one
	// line.
	Describe func(error) string
}

// Experiment is a planned comparison: the tasks, the learners, which
// learner applies to which task, and the notes that the report and the
// summary state about what was left out.
type Experiment struct {
	// Tasks are the tasks that some model applies to, in the order given
	// to Plan.
	Tasks []Task
	// Learners are the models that apply to some task, in the order
	// given to Plan. A learner's Fit refuses at once the training rows of
	// a task it does not apply to (Run then counts fallbacks, which
	// Outcome leaves out of the reports).
	Learners []Learner
	// Applies[t][l] says whether Learners[l] applies to Tasks[t].
	Applies [][]bool
	// Notes say which tasks and models were left out, and which models
	// do not apply to which tasks, and why.
	Notes []string
}

// TaskNotApplicableError is the error of Plan, under RequireTasks, for a
// task that none of the models applies to: Reasons[l] is why Models[l]
// does not.
type TaskNotApplicableError struct {
	Task    string
	Models  []string
	Reasons []error

	describe func(error) string // PlanOptions.Describe
}

func (e *TaskNotApplicableError) Error() string {
	return fmt.Sprintf("compare: %s: none of the models applies (%s)", e.Task, e.Why())
}

// Why lists the models with the reason each does not apply, "name:
// reason", separated by semicolons, each reason on one line.
func (e *TaskNotApplicableError) Why() string {
	why := make([]string, len(e.Models))
	for l, name := range e.Models {
		why[l] = name + ": " + describeReason(e.describe, e.Reasons[l])
	}
	return strings.Join(why, "; ")
}

// ModelNotApplicableError is the error of Plan, under RequireModels, for a
// model that applies to none of the tasks: Reason is why it does not apply
// to Task, the first of them.
type ModelNotApplicableError struct {
	Model, Task string
	Reason      error
}

func (e *ModelNotApplicableError) Error() string {
	return fmt.Sprintf("compare: model %s applies to none of the tasks (%s: %s)", e.Model, e.Task, oneLine(e.Reason.Error()))
}

func (e *ModelNotApplicableError) Unwrap() error { return e.Reason }

// describeReason words err with describe, or as its message on one line
// when describe is nil.
func describeReason(describe func(error) string, err error) string {
	if describe != nil {
		return describe(err)
	}
	return oneLine(err.Error())
}

// NotClassifierError is the error of Plan for a model whose Fit returns a
// model that does not classify.
type NotClassifierError struct {
	Model string
	Kind  string // the Kind of the fitted model
}

func (e *NotClassifierError) Error() string {
	return fmt.Sprintf("compare: model %s: a %s model does not classify", e.Model, e.Kind)
}

// errNotApplicable is the fit error of a learner on the training rows of a
// task it does not apply to: Outcome leaves those curves out.
var errNotApplicable = errors.New("compare: not applicable")

// Plan finds out which models apply to which tasks, by fitting every model
// on at most PlanOptions.ProbeRows rows of every task (spread evenly over
// it), and returns the Experiment. A model applies to a task when that fit
// succeeds. A task that no model applies to, and a model that applies to
// no task, is left out with a note, or is an error under
// PlanOptions.RequireTasks and RequireModels. A model that fits but does
// not classify is an error (*NotClassifierError). A learner is generative
// when its models are gendisc.Generative, discriminative otherwise.
func Plan(tasks []Task, models []Model, opt PlanOptions) (*Experiment, error) {
	probe := opt.ProbeRows
	if probe <= 0 {
		probe = DefaultProbeRows
	}
	L := len(models)
	families := make([]*Family, L)
	first := make([]*ModelNotApplicableError, L) // the first task a model does not apply to
	e := &Experiment{}
	for _, task := range tasks {
		applies := make([]bool, L)
		reasons := make([]error, L) // why a model does not apply
		sample := evenRows(task.Data, probe)
		some := false
		for l, m := range models {
			fitted, err := m.Fit(sample)
			if err != nil {
				reasons[l] = err
				if first[l] == nil {
					first[l] = &ModelNotApplicableError{Model: m.Name, Task: task.Name, Reason: err}
				}
				continue
			}
			c, ok := fitted.(gendisc.Classifier)
			if !ok {
				return nil, &NotClassifierError{Model: m.Name, Kind: fitted.Kind()}
			}
			f := Discriminative
			if _, ok := unwrap(c).(gendisc.Generative); ok {
				f = Generative
			}
			families[l], applies[l], some = &f, true, true
		}
		if !some {
			names := make([]string, L)
			for l, m := range models {
				names[l] = m.Name
			}
			err := &TaskNotApplicableError{Task: task.Name, Models: names, Reasons: reasons, describe: opt.Describe}
			if opt.RequireTasks {
				return nil, err
			}
			e.Notes = append(e.Notes, fmt.Sprintf("%s left out: none of the models applies (%s)", task.Name, err.Why()))
			continue
		}
		for l, m := range models {
			if !applies[l] {
				e.Notes = append(e.Notes, fmt.Sprintf("%s not applicable to %s: %s", m.Name, task.Name, describeReason(opt.Describe, reasons[l])))
			}
		}
		e.Tasks = append(e.Tasks, task)
		e.Applies = append(e.Applies, applies)
	}
	var keep []int // the models that apply to some task
	for l, m := range models {
		if families[l] == nil {
			if opt.RequireModels && first[l] != nil {
				return nil, first[l]
			}
			e.Notes = append(e.Notes, fmt.Sprintf("%s left out: it applies to none of the data sets", m.Name))
			continue
		}
		keep = append(keep, l)
		skip := map[*data.Schema]bool{}
		for t, task := range e.Tasks {
			if !e.Applies[t][l] {
				skip[task.Data.Schema] = true
			}
		}
		e.Learners = append(e.Learners, Learner{Name: m.Name, Family: *families[l], Settings: m.Settings, Tuned: m.Tuned, Fit: classifierFit(m.Fit, skip)})
	}
	for t, applies := range e.Applies {
		kept := make([]bool, len(keep))
		for k, l := range keep {
			kept[k] = applies[l]
		}
		e.Applies[t] = kept
	}
	return e, nil
}

// classifierFit adapts a Model's fit function to a Learner: it refuses at
// once the training sets whose schema is in skip (data.Dataset.Subset
// keeps the schema of the data set it draws from), the tasks the model
// does not apply to.
func classifierFit(fit func(*data.Dataset) (gendisc.Model, error), skip map[*data.Schema]bool) func(*data.Dataset) (gendisc.Classifier, error) {
	return func(d *data.Dataset) (gendisc.Classifier, error) {
		if skip[d.Schema] {
			return nil, errNotApplicable
		}
		m, err := fit(d)
		if err != nil {
			return nil, err
		}
		c, ok := m.(gendisc.Classifier)
		if !ok {
			return nil, fmt.Errorf("compare: a %s model does not classify", m.Kind())
		}
		return c, nil
	}
}

// evenRows returns at most n rows of d, spread evenly over it: rows
// ⌊i·N/n⌋ for i = 0, …, n−1.
func evenRows(d *data.Dataset, n int) *data.Dataset {
	if d.N <= n {
		return d
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i * d.N / n
	}
	return d.Subset(idx)
}

// oneLine returns s with every run of white space, newlines included,
// replaced by one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// TwoClassTask is a two-class task of Ng and Jordan: the rows of classes A
// and B of the bundled data set Source (see Binary).
type TwoClassTask struct{ Name, Source, A, B string }

// TwoClassTasks returns the two-class tasks that Ng and Jordan drew from
// optdigits: optdigits_0_vs_1 and optdigits_2_vs_3.
func TwoClassTasks() []TwoClassTask {
	return []TwoClassTask{
		{"optdigits_0_vs_1", "optdigits", "0", "1"},
		{"optdigits_2_vs_3", "optdigits", "2", "3"},
	}
}

// LookupTwoClassTask returns the two-class task of TwoClassTasks named
// name.
func LookupTwoClassTask(name string) (TwoClassTask, bool) {
	for _, b := range TwoClassTasks() {
		if b.Name == name {
			return b, true
		}
	}
	return TwoClassTask{}, false
}

// DefaultTaskNames returns the names of the tasks of the default
// experiment: every bundled data set (datasets.Names), each followed by
// its two-class tasks.
func DefaultTaskNames() []string {
	var names []string
	for _, name := range datasets.Names() {
		names = append(names, name)
		for _, b := range TwoClassTasks() {
			if b.Source == name {
				names = append(names, b.Name)
			}
		}
	}
	return names
}
