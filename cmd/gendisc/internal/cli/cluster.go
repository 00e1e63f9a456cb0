package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelflags"
)

// The command list is set by cli.go's init, which runs before this file's
// (files initialise in name order).

var cmdCluster = &Command{
	Name:      "cluster",
	UsageLine: "cluster --data F --components K|LO-HI [--covariance T] [--init M] [--restarts N] [--seed S] [--out M.json]",
	Short:     "fit a Gaussian mixture by EM; choose the number of components by BIC",
	Long: `
Cluster fits a Gaussian mixture p(x) = Σ_k π_k N(x; μ_k, Σ_k) to the numeric
columns of a data set by EM and writes it as a model file (kind gmm) to
--out, standard output by default. Every column is a feature unless
--target names one to leave out (class labels, say); columns that are not
numeric are left out with a note.

--components takes a number K or a range such as 1-10: every K in the range
is fitted and the one of smallest BIC kept; the BIC, AIC and log-likelihood
of every K are printed and kept in the model file. A K above the lower
bound whose mixture has more parameters than there are rows (fewer rows
per component than parameters per component) is not tried: the range is
cut there with a warning. A single K is fitted as asked, up to one
component per row. --restarts runs EM from
several starting points (k-means++ seeds, or random responsibilities with
--init random) and keeps the largest log-likelihood. The log-likelihood of
every EM iteration is kept in the model; gendisc inspect prints it. Rows
with missing cells are kept: EM uses the density of their observed cells.

--reg-covar (default 1e-6) keeps the covariance matrices positive
definite. By default it is a floor on their eigenvalues
(--reg-covar-mode floor): every EM step is then the exact maximisation of
the likelihood over the covariances whose eigenvalues are at least
--reg-covar, and the log-likelihood never decreases from one iteration to
the next. --reg-covar-mode ridge adds it to their diagonal instead, as
scikit-learn's GaussianMixture does: on features of small spread (raw
sonar, breast_cancer_wdbc) the log-likelihood may then decrease.

A progress line on standard error (the K of a range being fitted, the
restart and the EM iteration) is shown on a terminal unless --quiet.

Example:

	gendisc cluster --data iris --target class --components 1-6 --covariance diag --restarts 5 --out iris-gmm.json`,
	Required:    []string{"data"},
	WritesModel: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &clusterOptions{comp: mixture.ComponentRange{Min: mixture.DefaultComponents, Max: mixture.DefaultComponents}}
		fs.StringVar(&o.data, "data", "", "the data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
		fs.StringVar(&o.target, "target", "", "a `column` to leave out, such as class labels (default: none)")
		fs.Var(&o.ignored, "ignore", "skip these `columns`")
		fs.StringVar(&o.weight, "weight", "", "the `column` holding a weight per row")
		fs.Var(&o.comp, "components", "the number of components `K` (default 2), or a range such as 1-10 chosen by BIC")
		o.cfg = mixture.DefineFlags(fs)
		fs.StringVar(&o.out, "out", "-", "write the model to this `file`; - for standard output")
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type clusterOptions struct {
	data, target, weight, out string
	ignored                   modelflags.List
	comp                      mixture.ComponentRange
	cfg                       func() (mixture.Config, uint64)
}

func (o *clusterOptions) run(env *Env) error {
	cfg, seed := o.cfg()
	d, err := env.readData(o.data, dataio.Options{Target: o.target, NoTarget: o.target == "", Ignore: o.ignored, Weight: o.weight})
	if err != nil {
		return err
	}
	d, skipped := numericColumns(d)
	for _, name := range skipped {
		if !env.Quiet {
			fmt.Fprintf(env.Stderr, "gendisc: cluster: column %q is not numeric: left out\n", name)
		}
	}
	env.verbosef("%s: %d rows, %d numeric features", d.Source, d.N, d.D())
	bar := env.progress()
	// Every EM run of a fit starts with restart 0, iteration 1: for a
	// range of K, that is the next candidate (K in increasing order;
	// mixture.SelectK may stop before hi, where K has more parameters
	// than there are rows).
	k := o.comp.Min - 1
	cfg.OnIter = func(restart, iter int, ll float64) {
		if restart == 0 && iter == 1 {
			k++
		}
		bar("%srestart %d/%d, iteration %d/%d, log-likelihood %s", candidate(o.comp, k), restart+1, cfg.Restarts, min(iter, cfg.MaxIter), cfg.MaxIter, num(ll))
	}
	g, err := mixture.SelectConfig{Config: cfg, Range: o.comp, Seed: seed}.Fit(d)
	bar("")
	if err != nil {
		return err
	}
	if err := env.writeModel(o.out, g); err != nil {
		return err
	}
	if env.Quiet {
		return nil
	}
	if cands := g.Candidates(); len(cands) > 0 {
		rows := make([][]string, len(cands))
		for i, c := range cands {
			rows[i] = []string{strconv.Itoa(c.K), num(c.LogLik), num(c.BIC), num(c.AIC)}
		}
		if err := writeTable(env.Stderr, []string{"K", "log-likelihood", "BIC", "AIC"}, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(env.Stderr, "gendisc: cluster: %d components, %s covariance: log-likelihood %s, BIC %s, AIC %s, %d EM iterations\n",
		g.Components(), g.CovarianceType(), num(g.LogLikelihood()), num(g.BIC()), num(g.AIC()), g.Iterations())
	for _, w := range g.Warnings() {
		fmt.Fprintf(env.Stderr, "gendisc: cluster: warning: %s\n", w)
	}
	if env.Verbose {
		for i, v := range g.LogLikelihoodTrace() {
			fmt.Fprintf(env.Stderr, "gendisc: iteration %d: log-likelihood %s\n", i, num(v))
		}
	}
	return nil
}

// candidate describes the fit of K = k in cluster's progress line: for a
// range of K, which one and how many at most the range holds; nothing for
// a single K.
func candidate(r mixture.ComponentRange, k int) string {
	if r.Min == r.Max {
		return ""
	}
	return fmt.Sprintf("K = %d (candidate %d of at most %d), ", k, k-r.Min+1, r.Max-r.Min+1)
}

// numericColumns returns d without its non-numeric feature columns, and
// their names.
func numericColumns(d *data.Dataset) (*data.Dataset, []string) {
	var keep []int
	var skipped []string
	for j, c := range d.Schema.Features {
		if c.Kind == data.Numeric {
			keep = append(keep, j)
		} else {
			skipped = append(skipped, c.Name)
		}
	}
	if len(skipped) == 0 {
		return d, nil
	}
	return selectFeatures(d, keep), skipped
}

// selectFeatures returns d with the feature columns keep alone, in that
// order (their cells and text; the target, weights and source as d's).
func selectFeatures(d *data.Dataset, keep []int) *data.Dataset {
	s := &data.Schema{Target: d.Schema.Target}
	for _, j := range keep {
		s.Features = append(s.Features, d.Schema.Features[j])
	}
	out := *d
	out.Schema, out.Text, out.Source.Unseen = s, nil, nil
	out.X = make([]float64, d.N*len(keep))
	D := d.D()
	for i := range d.N {
		for a, j := range keep {
			out.X[i*len(keep)+a] = d.X[i*D+j]
		}
	}
	for a, j := range keep {
		if d.Text != nil && d.Text[j] != nil {
			if out.Text == nil {
				out.Text = make([][]string, len(keep))
			}
			out.Text[a] = d.Text[j]
		}
	}
	return &out
}

// progress returns a function that shows a status line on a terminal
// Stderr (rewritten in place, at most ten times a second), and clears it
// when called with "". It does nothing with --quiet or when Stderr is not
// a terminal (showProgress, as compare's progress bar).
func (env *Env) progress() func(format string, args ...any) {
	if !env.showProgress() {
		return func(string, ...any) {}
	}
	var last time.Time
	shown := false
	return func(format string, args ...any) {
		if format == "" {
			if shown {
				fmt.Fprint(env.Stderr, "\r\033[K")
			}
			return
		}
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond {
			last, shown = now, true
			fmt.Fprintf(env.Stderr, "\r\033[K"+format, args...)
		}
	}
}
