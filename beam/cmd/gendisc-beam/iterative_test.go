package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/registry"
)

// beamFlags are the names of the flags on flag.CommandLine before any
// test defines fit's there: Beam's.
var beamFlags = func() map[string]bool {
	m := map[string]bool{}
	flag.CommandLine.VisitAll(func(f *flag.Flag) { m[f.Name] = true })
	return m
}()

// parseFit defines fit's flags for args on a new flag set, as run does on
// flag.CommandLine, and parses args.
func parseFit(t *testing.T, args []string) (*fitOptions, error) {
	t.Helper()
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	o := fitFlags(fs, args)
	if o.kindErr != nil {
		return nil, o.kindErr
	}
	o.stderr = io.Discard
	fs.VisitAll(func(f *flag.Flag) {
		if beamFlags[f.Name] {
			t.Errorf("flag --%s is also Beam's", f.Name)
		}
	})
	return o, fs.Parse(args)
}

// TestIterativeKinds checks that the iterative kinds are fit's, with
// flags that Beam does not have.
func TestIterativeKinds(t *testing.T) {
	if !slices.Equal(slices.Sorted(func(yield func(string) bool) {
		for k := range iterKinds {
			if !yield(k) {
				return
			}
		}
	}), fit.IterativeKinds()) {
		t.Errorf("iterative kinds with flags differ from %v", fit.IterativeKinds())
	}
	for _, k := range fit.IterativeKinds() {
		if _, err := parseFit(t, []string{"--model", k}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestFitIterative runs fit of gmm and logistic on prism over three
// shards: the model files load, --verbose prints the log-likelihood of
// every EM iteration, and a solver that needs the rows is a usage error.
func TestFitIterative(t *testing.T) {
	dir := t.TempDir()
	for s := range 3 {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := range 40 {
			k := (i + s) % 2
			fmt.Fprintf(&b, "%d.25,%d,%s\n", (i*7+s)%9+6*k, (i*5+s)%4-3*k, []string{"a", "b"}[k])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	glob := filepath.Join(dir, "part-*")
	out := filepath.Join(dir, "gmm.json")
	o, err := parseFit(t, []string{"--data", glob, "--model", "gmm", "--components", "2", "--covariance", "diag", "--verbose", "--out", out})
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	o.stderr = &stderr
	if err := o.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	m, err := registry.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	g := m.(*mixture.GMM)
	if n := strings.Count(stderr.String(), "log-likelihood"); g.Components() != 2 || n != len(g.LogLikelihoodTrace()) {
		t.Errorf("%d components, %d log-likelihoods printed for a trace of %d:\n%s", g.Components(), n, len(g.LogLikelihoodTrace()), stderr.String())
	}

	out = filepath.Join(dir, "lr.json")
	o, err = parseFit(t, []string{"--data", glob, "--model", "logistic", "--l2", "0.5", "--out", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m, err := registry.Load(out); err != nil || m.(*logistic.Model).L2() != 0.5 || !m.(*logistic.Model).Converged() {
		t.Errorf("logistic model file: %v", err)
	}
	o, err = parseFit(t, []string{"--data", glob, "--model", "logistic", "--solver", "sgd", "--out", out})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.run(context.Background()); !errors.Is(err, errUsage) {
		t.Errorf("--solver sgd: %v, want a usage error", err)
	}
}
