package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/registry"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// TestKinds checks that every kind fit takes has its flags here, and that
// their defaults give an accumulator.
func TestKinds(t *testing.T) {
	var names []string
	for name, k := range kinds {
		names = append(names, name)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		acc := k(fs)
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		if _, err := acc(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, fit.Kinds()) {
		t.Errorf("kinds with flags %v, want %v", names, fit.Kinds())
	}
}

// TestFit runs gendisc-beam fit on prism over three shards and loads the
// model file it writes.
func TestFit(t *testing.T) {
	dir := t.TempDir()
	for s := range 3 {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := range 20 {
			fmt.Fprintf(&b, "%d.5,%d,%s\n", i+s, (i*7+s)%5, []string{"a", "b"}[(i+s)%2])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "m.json")
	err := run(context.Background(), "fit", []string{"--data", filepath.Join(dir, "part-*"), "--model", "qda", "--shrinkage", "0.2", "--out", out}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m, err := registry.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind() != "qda" || len(m.Schema().Classes()) != 2 {
		t.Errorf("model of kind %s, classes %v", m.Kind(), m.Schema().Classes())
	}
}
