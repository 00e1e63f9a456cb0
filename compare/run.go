package compare

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// Defaults of Config.
const (
	DefaultSplits  = 100
	DefaultMaxTest = 5000
)

// Config holds the settings of Run. The zero value gives the defaults.
type Config struct {
	// Splits is the number of random splits per training-set size;
	// 0 means DefaultSplits (100). Ng and Jordan averaged 1000.
	Splits int
	// Sizes are the training-set sizes; nil means DefaultSizes for each
	// task, with MaxSize. Sizes a task cannot use (smaller than its number of classes
	// or leaving fewer test rows than classes) are left out for that
	// task; a task left with no size is an error.
	Sizes []int
	// MaxSize caps the largest size of the default grid; 0 means
	// DefaultMaxSize (5000), a negative value no cap. It does not apply
	// to Sizes.
	MaxSize int
	// MaxTest caps the test set of a split: when more than MaxTest rows
	// are left after the training rows are drawn, the test set is a
	// stratified sample of MaxTest of them. 0 means DefaultMaxTest
	// (5000), which only the adult data set reaches among the bundled
	// ones; a negative value means no cap.
	MaxTest int
	// Seed seeds the random splits.
	Seed uint64
	// Jobs is the number of splits worked on at once; 0 means
	// runtime.GOMAXPROCS(0). The results do not depend on it.
	Jobs int
	// Progress, when not nil, is called after every split, from one
	// goroutine at a time, with counts that never decrease.
	Progress func(Progress)
}

// Progress counts the work done so far by Run.
type Progress struct {
	// Datasets, Sizes and Splits are the totals over all tasks (Sizes
	// counts (task, m) pairs, Splits (task, m, split) triples); the
	// ...Done fields count those finished.
	Datasets, DatasetsDone int
	Sizes, SizesDone       int
	Splits, SplitsDone     int
	// Work and WorkDone estimate the cost in cell visits, Σ (m + test
	// rows) × features × learners, a better guide to the time left than
	// the split count, since large training sets cost more.
	Work, WorkDone float64
	// Dataset is the task of the split that just finished.
	Dataset string
}

func (c Config) splits() int {
	if c.Splits <= 0 {
		return DefaultSplits
	}
	return c.Splits
}

func (c Config) maxTest() int {
	if c.MaxTest == 0 {
		return DefaultMaxTest
	}
	return max(c.MaxTest, 0)
}

func (c Config) maxSize() int {
	if c.MaxSize == 0 {
		return DefaultMaxSize
	}
	return c.MaxSize
}

func (c Config) jobs() int {
	if c.Jobs <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return c.Jobs
}

// taskPlan is a task of tables or of sentences with its sizes and the
// function that scores the learners on one split.
type taskPlan struct {
	name    string
	classes []string // the classes, or the tags
	rows    int      // rows, or sentences
	tests   int      // test sentences of the task's own, 0 when held out of rows
	cost    int      // features per row, for Progress.Work
	sizes   []int
	// score draws split number split of m training rows from rng, fits every
	// learner on it and stores their test errors in errs (one per
	// learner), the fallbacks in fell and the fits that warned in warned.
	score func(rng *rand.Rand, m, split int, errs []float64, fell, warned []bool, tuned [][]float64) error
	// errs holds the test error of split s of size i for learner l at
	// ((i·S + s)·L + l); fell marks the fallbacks, warned the fits
	// that succeeded with warnings.
	errs         []float64
	fell, warned []bool
	tuned        [][]float64 // the values a TunedModel chose, nil otherwise
	// left counts the unfinished splits of each size and of the task.
	left     []int
	taskLeft int
}

// unit is one split of one size of one task.
type unit struct {
	task, size, split int
	work              float64
}

// Run fits every learner on Config.Splits random stratified splits of every
// task at every training-set size, and returns the learning curves (see
// the package documentation for the scheme). It returns an error for an
// invalid task or learner list, or when ctx is done before the end
// (ctx.Err()); fit failures are not errors, they are fallbacks.
func Run(ctx context.Context, tasks []Task, learners []Learner, cfg Config) (*Result, error) {
	if err := checkLearners(learners); err != nil {
		return nil, err
	}
	plans, err := plan(tasks, learners, cfg)
	if err != nil {
		return nil, err
	}
	return runPlans(ctx, plans, learners, cfg)
}

// runPlans runs the splits of every plan on cfg.Jobs goroutines and
// summarises them; learners name the columns of the errors.
func runPlans(ctx context.Context, plans []*taskPlan, learners []Learner, cfg Config) (*Result, error) {
	S, L := cfg.splits(), len(learners)
	var units []unit
	prog := Progress{Datasets: len(plans)}
	for t, p := range plans {
		n, D := p.rows, max(p.cost, 1)
		p.errs = make([]float64, len(p.sizes)*S*L)
		p.fell = make([]bool, len(p.errs))
		p.warned = make([]bool, len(p.errs))
		p.tuned = make([][]float64, len(p.errs))
		p.left = make([]int, len(p.sizes))
		p.taskLeft = len(p.sizes) * S
		prog.Sizes += len(p.sizes)
		// Largest sizes first within a task, so that the cheap small
		// fits fill the gaps at the end.
		for i := len(p.sizes) - 1; i >= 0; i-- {
			m := p.sizes[i]
			test := n - m
			if mt := cfg.maxTest(); mt > 0 {
				test = min(test, mt)
			}
			if p.tests > 0 {
				test = p.tests / S // a part of them
			}
			p.left[i] = S
			for s := range S {
				units = append(units, unit{t, i, s, float64((m + test) * D * L)})
				prog.Work += units[len(units)-1].work
			}
		}
	}
	prog.Splits = len(units)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	// take returns the next unit, or false when there is none left or
	// the run stops.
	take := func() (unit, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next == len(units) || ctx.Err() != nil {
			return unit{}, false
		}
		next++
		return units[next-1], true
	}
	finish := func(u unit, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			cancel()
			return
		}
		p := plans[u.task]
		prog.SplitsDone++
		prog.WorkDone += u.work
		prog.Dataset = p.name
		if p.left[u.size]--; p.left[u.size] == 0 {
			prog.SizesDone++
		}
		if p.taskLeft--; p.taskLeft == 0 {
			prog.DatasetsDone++
		}
		if cfg.Progress != nil {
			cfg.Progress(prog)
		}
	}
	for range min(cfg.jobs(), max(len(units), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u, ok := take(); ok; u, ok = take() {
				finish(u, runUnit(plans[u.task], u, L, cfg))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return summarise(plans, learners, cfg), nil
}

// plan checks the tasks and chooses their sizes.
func plan(tasks []Task, learners []Learner, cfg Config) ([]*taskPlan, error) {
	if len(tasks) == 0 {
		return nil, fmt.Errorf("compare: no tasks")
	}
	plans := make([]*taskPlan, len(tasks))
	seen := map[string]bool{}
	for t, task := range tasks {
		d := task.Data
		switch {
		case task.Name == "":
			return nil, fmt.Errorf("compare: task %d has no name", t)
		case seen[task.Name]:
			return nil, fmt.Errorf("compare: task %q appears twice", task.Name)
		case d == nil || d.Schema.Target == nil || d.Schema.Target.Kind != data.Categorical || d.Y == nil:
			return nil, fmt.Errorf("compare: %s: no class labels", task.Name)
		}
		seen[task.Name] = true
		byClass := classRows(d)
		counts := make([]int, len(byClass))
		n, k := 0, 0
		for c, rows := range byClass {
			counts[c] = len(rows)
			n += len(rows)
			if len(rows) > 0 {
				k++
			}
		}
		if k < 2 {
			return nil, fmt.Errorf("compare: %s: %d class with rows, want at least 2", task.Name, k)
		}
		sizes := DefaultSizes(counts, cfg.maxSize())
		if cfg.Sizes != nil {
			sizes = nil
			for _, m := range cfg.Sizes {
				if m >= k && m <= n-k && !slices.Contains(sizes, m) {
					sizes = append(sizes, m)
				}
			}
			slices.Sort(sizes)
		}
		if len(sizes) == 0 {
			return nil, fmt.Errorf("compare: %s: no training-set size fits %d rows of %d classes (a size needs at least one row per class in training and in test)", task.Name, n, k)
		}
		plans[t] = &taskPlan{name: task.Name, classes: d.Schema.Classes(), rows: n, cost: d.D(), sizes: sizes,
			score: func(rng *rand.Rand, m, _ int, errs []float64, fell, warned []bool, tuned [][]float64) error {
				return scoreTableSplit(rng, task, byClass, m, learners, cfg.maxTest(), errs, fell, warned, tuned)
			}}
	}
	return plans, nil
}

// newSplitRand returns the random source of split s of size m of task t:
// PCG seeded with (seed, splitSeed(t, m, s)).
func newSplitRand(seed uint64, t, m, s int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, splitSeed(t, m, s)))
}

// splitSeed is the second word of the PCG seed of a split: the task index,
// m and the split index mixed by SplitMix64 steps, so that neighbouring
// splits get unrelated streams.
func splitSeed(task, m, split int) uint64 {
	h := uint64(0)
	for _, v := range []int{task, m, split} {
		h = splitMix(h ^ uint64(v))
	}
	return h
}

// splitMix is the output function of SplitMix64 (Steele et al. 2014).
func splitMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// runUnit scores split u.split of size u.size of p's task, with the
// random source of newSplitRand, and stores the errors of its L learners.
func runUnit(p *taskPlan, u unit, L int, cfg Config) error {
	m := p.sizes[u.size]
	at := (u.size*cfg.splits() + u.split) * L
	if err := p.score(newSplitRand(cfg.Seed, u.task, m, u.split), m, u.split, p.errs[at:at+L], p.fell[at:at+L], p.warned[at:at+L], p.tuned[at:at+L]); err != nil {
		return fmt.Errorf("compare: %s: %w", p.name, err)
	}
	return nil
}

// scoreTableSplit draws a stratified split of m training rows of task,
// fits every learner on them and stores their test errors, which fits
// fell back or warned, and the settings a tuned learner chose.
func scoreTableSplit(rng *rand.Rand, task Task, byClass [][]int, m int, learners []Learner, maxTest int, errs []float64, fell, warned []bool, tuned [][]float64) error {
	sp, err := drawSplit(rng, byClass, m, maxTest)
	if err != nil {
		return err
	}
	d := task.Data
	train, test := d.Subset(sp.train), d.Subset(sp.test)
	for l, ln := range learners {
		model, err := ln.Fit(train)
		if err != nil {
			errs[l], fell[l] = majorityError(train, test), true
			continue
		}
		if t, ok := model.(*TunedModel); ok {
			tuned[l] = t.Values
		}
		warned[l] = warns(model)
		errs[l] = testError(model, test)
	}
	return nil
}

// warns reports whether a fitted model has warnings (gendisc.Warner).
func warns(model any) bool {
	w, ok := model.(gendisc.Warner)
	return ok && len(w.Warnings()) > 0
}

// majorityError is the test error of predicting the most frequent class
// of the training rows (the lowest class index among ties).
func majorityError(train, test *data.Dataset) float64 {
	counts := make([]int, len(train.Schema.Classes()))
	for _, y := range train.Y {
		counts[int(y)]++
	}
	best := 0
	for k, c := range counts {
		if c > counts[best] {
			best = k
		}
	}
	wrong := 0
	for _, y := range test.Y {
		if int(y) != best {
			wrong++
		}
	}
	return float64(wrong) / float64(test.N)
}

// testError is the fraction of the rows of test that model misclassifies.
// The prediction is the class of largest log-probability (the first among
// ties); a row whose log-probabilities are all NaN counts as an error.
// Model classes are matched to the data's by name.
func testError(model gendisc.Classifier, test *data.Dataset) float64 {
	classes := test.Schema.Classes()
	index := make([]int, 0, len(classes))
	for _, c := range model.Classes() {
		index = append(index, slices.Index(classes, c))
	}
	K := len(index)
	lp := model.LogProba(nil, test)
	wrong := 0
	for i, y := range test.Y {
		best := -1
		for k, v := range lp[i*K : (i+1)*K] {
			if !math.IsNaN(v) && (best < 0 || v > lp[i*K+best]) {
				best = k
			}
		}
		if best < 0 || index[best] != int(y) {
			wrong++
		}
	}
	return float64(wrong) / float64(test.N)
}
