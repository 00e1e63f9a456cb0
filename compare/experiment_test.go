package compare

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/internal/bundled"
)

// genCentroid is the centroid stub as a generative model: its joint
// log-likelihood is the log-posterior (a model of p(x, y) up to a
// constant is all Plan looks at).
type genCentroid struct{ *centroid }

func (m genCentroid) JointLogLikelihood(dst []float64, d *data.Dataset) []float64 {
	return m.LogProba(dst, d)
}

// density is a model that does not classify.
type density struct{ schema *data.Schema }

func (m density) Kind() string         { return "density" }
func (m density) Schema() *data.Schema { return m.schema }

var errTwoClasses = errors.New("two classes only,\n\tplease")

// planModels are a generative model that applies to every task, a
// discriminative one that applies to the two-class tasks, and one that
// applies to none; probed records the rows of every fit.
func planModels(probed *[]int, mu *sync.Mutex) []Model {
	record := func(d *data.Dataset) {
		mu.Lock()
		*probed = append(*probed, d.N)
		mu.Unlock()
	}
	return []Model{
		{Name: "gen", Settings: "g", Fit: func(d *data.Dataset) (gendisc.Model, error) {
			record(d)
			c, err := fitCentroid(d)
			if err != nil {
				return nil, err
			}
			return genCentroid{c.(*centroid)}, nil
		}},
		{Name: "disc", Settings: "d", Fit: func(d *data.Dataset) (gendisc.Model, error) {
			record(d)
			if len(d.Schema.Classes()) != 2 {
				return nil, errTwoClasses
			}
			return fitCentroid(d)
		}},
		{Name: "none", Fit: func(d *data.Dataset) (gendisc.Model, error) {
			record(d)
			return nil, errors.New("never")
		}},
	}
}

func planTasks(t *testing.T, names ...string) []Task {
	var tasks []Task
	for _, name := range names {
		tasks = append(tasks, Task{Name: name, Data: bundled.Load(t, name, dataio.Options{})})
	}
	return tasks
}

// TestPlan checks which models apply to which tasks, the learners'
// families, the notes, the probe rows, and the grouping of the curves into
// reports: the same curves as Run on the experiment's tasks and learners,
// without those of the learners that do not apply.
func TestPlan(t *testing.T) {
	var (
		probed []int
		mu     sync.Mutex
	)
	tasks := planTasks(t, "iris", "sonar", "wine")
	e, err := Plan(tasks, planModels(&probed, &mu), PlanOptions{ProbeRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(probed) != 9 || slices.Max(probed) != 100 {
		t.Errorf("probe fits on %v rows, want 9 fits on 100 rows", probed)
	}
	var names []string
	for _, task := range e.Tasks {
		names = append(names, task.Name)
	}
	if !slices.Equal(names, []string{"iris", "sonar", "wine"}) {
		t.Errorf("tasks %q", names)
	}
	if len(e.Learners) != 2 || e.Learners[0].Name != "gen" || e.Learners[0].Family != Generative || e.Learners[0].Settings != "g" ||
		e.Learners[1].Name != "disc" || e.Learners[1].Family != Discriminative || e.Learners[1].Settings != "d" {
		t.Errorf("learners %+v", e.Learners)
	}
	if want := [][]bool{{true, false}, {true, true}, {true, false}}; !reflect.DeepEqual(e.Applies, want) {
		t.Errorf("applies %v, want %v", e.Applies, want)
	}
	notes := []string{
		"disc not applicable to iris: two classes only, please",
		"none not applicable to iris: never",
		"none not applicable to sonar: never",
		"disc not applicable to wine: two classes only, please",
		"none not applicable to wine: never",
		"none left out: it applies to none of the data sets",
	}
	if !slices.Equal(e.Notes, notes) {
		t.Errorf("notes\n%q\nwant\n%q", e.Notes, notes)
	}
	if _, err := e.Learners[1].Fit(tasks[0].Data.Subset([]int{0, 1, 2})); !errors.Is(err, errNotApplicable) {
		t.Errorf("disc fitted on iris rows: %v", err)
	}

	cfg := Config{Splits: 3, Sizes: []int{10, 30}, Seed: 5}
	o, err := e.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Run(context.Background(), e.Tasks, e.Learners, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Reports) != 2 {
		t.Fatalf("%d reports, want 2", len(o.Reports))
	}
	main, sub := o.Reports[0], o.Reports[1]
	if main.Dir != "" || !slices.Equal(main.Learners(), []string{"gen", "disc"}) || !slices.Equal(main.Tasks(), []string{"sonar"}) {
		t.Errorf("main report: dir %q, learners %q, tasks %q", main.Dir, main.Learners(), main.Tasks())
	}
	if sub.Dir != "gen" || !slices.Equal(sub.Learners(), []string{"gen"}) || !slices.Equal(sub.Tasks(), []string{"iris", "wine"}) {
		t.Errorf("second report: dir %q, learners %q, tasks %q", sub.Dir, sub.Learners(), sub.Tasks())
	}
	if got, want := main.Result.Tasks[0], all.Tasks[1]; !reflect.DeepEqual(got, want) {
		t.Errorf("sonar: %+v\nwant %+v", got, want)
	}
	for i, t0 := range []int{0, 2} {
		got, want := sub.Result.Tasks[i], all.Tasks[t0]
		if len(got.Curves) != 1 || len(got.Crossovers) != 0 || !reflect.DeepEqual(got.Curves[0], want.Curves[0]) {
			t.Errorf("%s: curves %+v, crossovers %+v; want the curve %+v only", got.Name, got.Curves, got.Crossovers, want.Curves[0])
		}
	}
	wantNotes := append(slices.Clone(notes), "iris, wine: with gen only, in the report gen/index.html")
	if !slices.Equal(o.Notes, wantNotes) {
		t.Errorf("outcome notes %q", o.Notes)
	}

	var b, sb bytes.Buffer
	if err := o.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	sb.WriteString("models gen, disc:\n")
	main.Result.WriteSummary(&sb)
	sb.WriteString("\nmodels gen:\n")
	sub.Result.WriteSummary(&sb)
	sb.WriteString("\n")
	for _, n := range wantNotes {
		sb.WriteString("note: " + n + "\n")
	}
	if b.String() != sb.String() {
		t.Errorf("summary\n%s\nwant\n%s", b.String(), sb.String())
	}

	parent := t.TempDir()
	dir := filepath.Join(parent, "report")
	if err := o.WriteReports(dir, ReportInfo{Command: "cmd", Notes: []string{"first note"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{IndexFile, CurvesFile, SummaryFile, "sonar.svg", "gen/" + IndexFile, "gen/" + CurvesFile, "gen/iris.svg", "gen/wine.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "gen", IndexFile))
	for _, s := range []string{"first note", "iris, wine: with gen only"} {
		if !strings.Contains(string(index), s) {
			t.Errorf("gen/index.html lacks %q", s)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries beside the report, want none", len(entries)-1)
	}
	// A directory that holds something else is left as it was, and so is
	// its parent.
	mine := filepath.Join(parent, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "keep.txt"), nil, 0o644)
	if err := o.WriteReports(mine, ReportInfo{}); err == nil {
		t.Error("WriteReports replaced a directory that holds no report")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 2 {
		t.Errorf("%d entries in the parent after a failure, want 2", len(entries))
	}
	if inside, _ := os.ReadDir(mine); len(inside) != 1 {
		t.Errorf("%d entries in the directory after a failure, want 1", len(inside))
	}
}

// TestPlanErrors checks the typed errors of Plan and the notes that take
// their place without RequireTasks and RequireModels.
func TestPlanErrors(t *testing.T) {
	var (
		probed []int
		mu     sync.Mutex
	)
	models := planModels(&probed, &mu)
	tasks := planTasks(t, "iris", "sonar")

	_, err := Plan(tasks, models, PlanOptions{RequireModels: true})
	var mn *ModelNotApplicableError
	if !errors.As(err, &mn) || mn.Model != "none" || mn.Task != "iris" || mn.Reason.Error() != "never" {
		t.Errorf("RequireModels: %v", err)
	}

	_, err = Plan(tasks, models[1:], PlanOptions{RequireTasks: true})
	var tn *TaskNotApplicableError
	if !errors.As(err, &tn) || tn.Task != "iris" || !slices.Equal(tn.Models, []string{"disc", "none"}) ||
		tn.Reasons[0] != errTwoClasses || tn.Why() != "disc: two classes only, please; none: never" {
		t.Errorf("RequireTasks: %v", err)
	}

	e, err := Plan(tasks, models[1:], PlanOptions{RequireModels: false})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"iris left out: none of the models applies (disc: two classes only, please; none: never)",
		"none not applicable to sonar: never", "none left out: it applies to none of the data sets"}
	if len(e.Tasks) != 1 || e.Tasks[0].Name != "sonar" || len(e.Learners) != 1 || !slices.Equal(e.Notes, want) {
		t.Errorf("tasks %v, learners %v, notes %q", e.Tasks, e.Learners, e.Notes)
	}

	notClassifier := Model{Name: "gmm", Fit: func(d *data.Dataset) (gendisc.Model, error) { return density{d.Schema}, nil }}
	_, err = Plan(tasks, []Model{models[0], notClassifier}, PlanOptions{})
	var nc *NotClassifierError
	if !errors.As(err, &nc) || nc.Model != "gmm" || nc.Kind != "density" {
		t.Errorf("a model that does not classify: %v", err)
	}
}

// TestDefaultTaskNames: every bundled data set, optdigits followed by its
// two-class tasks, which LookupTwoClassTask finds.
func TestDefaultTaskNames(t *testing.T) {
	names := DefaultTaskNames()
	var want []string
	for _, name := range datasets.Names() {
		want = append(want, name)
		if name == "optdigits" {
			want = append(want, "optdigits_0_vs_1", "optdigits_2_vs_3")
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("DefaultTaskNames() = %q, want %q", names, want)
	}
	if b, ok := LookupTwoClassTask("optdigits_2_vs_3"); !ok || b != (TwoClassTask{"optdigits_2_vs_3", "optdigits", "2", "3"}) {
		t.Errorf("LookupTwoClassTask = %+v, %v", b, ok)
	}
	if _, ok := LookupTwoClassTask("optdigits"); ok {
		t.Error("LookupTwoClassTask found optdigits")
	}
}
