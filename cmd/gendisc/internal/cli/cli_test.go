package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// result is the outcome of one in-process run of the command line.
type result struct {
	stdout, stderr string
	code           int
}

// runCLI runs the command line args in-process with stdin as standard
// input.
func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr}
	code := Main(context.Background(), env, args)
	return result{stdout.String(), stderr.String(), code}
}

// mustRun runs args and fails the test unless they succeed.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("gendisc %s: exit %d, stderr:\n%s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

// golden compares got with testdata/name, or rewrites the file under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestHelp(t *testing.T) {
	golden(t, "help.golden", mustRun(t, "help"))
	golden(t, "help_fit.golden", mustRun(t, "help", "fit"))
	for _, c := range commands {
		t.Run(c.Name, func(t *testing.T) {
			for _, args := range [][]string{{c.Name, "--help"}, {c.Name, "-h"}, {"help", c.Name}} {
				out := mustRun(t, args...)
				if !strings.HasPrefix(out, "usage: gendisc "+c.UsageLine+"\n") {
					t.Errorf("%v: help does not start with the usage line:\n%s", args, out)
				}
				for _, want := range []string{"Example:", "Flags:", "--quiet", "--verbose"} {
					if !strings.Contains(out, want) {
						t.Errorf("%v: help lacks %q", args, want)
					}
				}
			}
		})
	}
}

// TestMisuse checks that mistakes on the command line exit with status 2,
// name the problem and show the usage line.
func TestMisuse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{nil, "no command given"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, `unknown help topic "frobnicate"`},
		{[]string{"fit"}, "gendisc fit: missing --data\nusage: gendisc fit "},
		{[]string{"fit", "--data", "iris", "--frobnicate"}, "flag provided but not defined: --frobnicate\nusage: gendisc fit"},
		{[]string{"fit", "--data", "iris", "--model", "logistic", "--l2", "abc"}, `invalid value "abc" for flag --l2: `},
		{[]string{"sample", "--model", "m.json"}, "gendisc sample: missing -n\nusage: gendisc sample --model M.json -n N"},
		{[]string{"sample", "--model", "m.json", "-n", "-5"}, `invalid value "-5" for flag -n: `},
		{[]string{"fit", "--data", "iris", "--model", "frobnicate"}, `unknown model kind "frobnicate"`},
		{[]string{"fit", "--data", "iris", "--variance", "feature", "--model", "frobnicate"}, `unknown model kind "frobnicate"`},
		{[]string{"fit", "--data", "iris", "extra"}, `unexpected argument "extra"`},
		{[]string{"predict", "--data", "iris"}, "missing --model"},
		{[]string{"eval", "--model", "m.json"}, "missing --data"},
		{[]string{"inspect"}, "missing --model"},
		{[]string{"datasets", "--json=maybe"}, `invalid boolean value "maybe" for --json`},
		{[]string{"fit", "--data"}, "flag needs an argument: --data\n"},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("gendisc %s: exit %d, stdout %q, stderr %q; want exit 2 and %q in stderr",
				strings.Join(tc.args, " "), r.code, r.stdout, r.stderr, tc.want)
		}
	}
}

func TestFlagValue(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "def"},
		{[]string{"--model", "qda"}, "qda"},
		{[]string{"-model", "qda"}, "qda"},
		{[]string{"--model=qda"}, "qda"},
		{[]string{"-model=qda", "--data", "x"}, "qda"},
		{[]string{"--model", "a", "--model", "b"}, "b"},
		{[]string{"--models", "a"}, "def"},
		{[]string{"--model"}, "def"},
		{[]string{"--", "--model", "a"}, "def"},
		{[]string{"model", "a"}, "def"},
	} {
		if got := flagValue(tc.args, "model", "def"); got != tc.want {
			t.Errorf("flagValue(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestListFlag(t *testing.T) {
	var l modelflags.List
	for _, s := range []string{"a,b", " c ,", "d"} {
		l.Set(s)
	}
	if got := l.String(); got != "a,b,c,d" {
		t.Errorf("list = %q, want a,b,c,d", got)
	}
}

func TestOutput(t *testing.T) {
	dir := t.TempDir()
	env := &Env{}
	path := filepath.Join(dir, "out.csv")

	o, err := env.create(path)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("half"))
	o.Abort()
	o.Abort()
	assertFiles(t, dir)

	o, err = env.create(path)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("whole"))
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	o.Abort() // no effect after Commit
	assertFiles(t, dir, "out.csv")
	if b, _ := os.ReadFile(path); string(b) != "whole" {
		t.Errorf("file holds %q, want %q", b, "whole")
	}

	var stdout bytes.Buffer
	env.Stdout = &stdout
	o, _ = env.create("-")
	o.Write([]byte("never"))
	o.Abort()
	o, _ = env.create("-")
	o.Write([]byte("shown"))
	if stdout.Len() != 0 {
		t.Errorf("standard output written before Commit")
	}
	o.Commit()
	if stdout.String() != "shown" {
		t.Errorf("standard output %q, want %q", stdout.String(), "shown")
	}

	missing := filepath.Join(dir, "no", "such", "file")
	if _, err := env.create(missing); err == nil || err.Error() != missing+": no such file or directory" {
		t.Errorf("create in a missing directory: error %v", err)
	}
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", "x"), nil, 0o644)
	o, _ = env.create(filepath.Join(dir, "d"))
	o.Write([]byte("over a directory"))
	if err := o.Commit(); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "d")+": ") {
		t.Errorf("commit over a directory: error %v", err)
	}
	assertFiles(t, dir, "d", "out.csv")
}

// assertFiles checks that dir holds exactly the files names.
func assertFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// TestOtherKindsFlag checks that a flag of another model kind is refused
// with a message that names its kind.
func TestOtherKindsFlag(t *testing.T) {
	registry.Register(registry.Kind{Name: "test-kind", Flags: func(fs *flag.FlagSet) func() (registry.Config, error) {
		fs.Float64("test-penalty", 1, "penalty")
		fs.Bool("test-switch", false, "a boolean flag")
		return func() (registry.Config, error) { return nil, errors.New("not fitted") }
	}}, func(*data.Schema, []byte) (*countModel, error) { return nil, errors.New("not read") })
	t.Cleanup(func() { registry.Unregister("test-kind") })
	for _, args := range [][]string{
		{"fit", "--data", "iris", "--model", "gaussian-nb", "--test-penalty", "3"},
		{"fit", "--data", "iris", "--test-switch", "--model", "gaussian-nb"},
	} {
		r := runCLI(t, "", args...)
		want := "it is a flag of --model test-kind, not of --model gaussian-nb"
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", args, r.code, r.stderr, want)
		}
	}
}

func TestVersion(t *testing.T) {
	out := mustRun(t, "version")
	if !strings.HasPrefix(out, "gendisc ") || !strings.Contains(out, ", model files version 1, go1.") {
		t.Errorf("version printed %q", out)
	}
}
