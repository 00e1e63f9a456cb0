package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// treebankShards writes the first n sentences of the bundled EWT dev part
// as three CoNLL-U files in a new directory, with their UPOS and XPOS
// tags, and returns the directory and the whole of them, as one file
// holds them.
func treebankShards(t *testing.T, n int) (dir string, all []byte) {
	t.Helper()
	read := func(tags string) *seq.Corpus {
		r, err := datasets.OpenTreebank("ud_english_ewt_dev")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		c, err := seqio.Read(r, "ewt", seqio.Options{Tags: tags})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	upos, xpos := read("upos"), read("xpos")
	dir = t.TempDir()
	var parts [3]bytes.Buffer
	for i := range n {
		s := upos.Sentences[i]
		b := &parts[i*len(parts)/n]
		for j, w := range s.Tokens {
			fmt.Fprintf(b, "%d\t%s\t_\t%s\t%s\t_\t_\t_\t_\t_\n", j+1, w, s.Tags[j], xpos.Sentences[i].Tags[j])
		}
		b.WriteString("\n")
	}
	for i := range parts {
		all = append(all, parts[i].Bytes()...)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.conllu", i)), parts[i].Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, all
}

// TestFitHMM runs gendisc-beam fit --model hmm on prism over three shards
// of CoNLL-U and checks that it writes the model file that gendisc fit
// --model hmm writes with the same flags (the kind's flags and
// SequenceConfig, on the sentences of all the shards read with --tags),
// byte for byte.
func TestFitHMM(t *testing.T) {
	dir, all := treebankShards(t, 600)
	for _, flags := range [][]string{nil, {"--order", "1", "--smoothing", "add-alpha", "--tags", "xpos"}} {
		t.Run(strings.Join(append([]string{"hmm"}, flags...), " "), func(t *testing.T) {
			freshFlags(t)
			out := filepath.Join(t.TempDir(), "hmm.json")
			if err := run(context.Background(), "fit", append([]string{"--data", filepath.Join(dir, "part-*"), "--model", "hmm", "--out", out}, flags...), io.Discard); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, gendiscFit(t, all, flags)) {
				t.Errorf("the model file differs from the fit on all the sentences")
			}
		})
	}
}

// gendiscFit returns the model file that gendisc fit --model hmm writes
// for the sentences of the CoNLL-U file b with the flags (those of the
// kind, and --tags): the kind's configuration of those flags, fitted on
// the sentences read as they say.
func gendiscFit(t *testing.T, b []byte, flags []string) []byte {
	t.Helper()
	k, err := registry.Lookup(hmm.Kind)
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	cfg := k.Flags(fs)
	tags := fs.String("tags", "upos", "")
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	c, err := cfg()
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := seqio.Read(bytes.NewReader(b), "all.conllu", seqio.Options{Tags: *tags})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.(registry.SequenceConfig).FitSequences(&seq.Corpus{Sentences: corpus.Sentences}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := modelfile.Write(&out, m.(modelfile.Persistent)); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestFitHMMErrors checks the mistakes of gendisc-beam fit --model hmm,
// found before any pipeline is built: flags of reading tables, --em (not
// fitted in one pass) and --schema are misuses; a tag field that CoNLL-U
// has not is an error of the data, on one line.
func TestFitHMMErrors(t *testing.T) {
	dir, _ := treebankShards(t, 30)
	glob, out := filepath.Join(dir, "part-*"), filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		args []string
		code int
		want string // stderr's first line
	}{
		{[]string{"--target", "y"}, 2, "gendisc-beam fit: flag provided but not defined: --target"},
		{[]string{"--em", "--smoothing", "add-alpha", "--context", "0"}, 2, "gendisc-beam fit: this configuration of --model hmm is not fitted in one pass"},
		{[]string{"--schema", out}, 2, "gendisc-beam fit: --schema gives the columns of tables: --model hmm reads sentences"},
		{[]string{"--tags", "lemma"}, 1, `gendisc-beam: unknown CoNLL-U tag field "lemma" (upos, xpos, deprel or misc:KEY)`},
		{[]string{"--seq-format", "conll", "--tag-column", "12"}, 1, "gendisc-beam: " + filepath.Join(dir, "part-0.conllu") + ":1:11: tag column out of range: tag column 12 of a line of 10 fields (the word is column 1)"},
	} {
		code, stdout, stderr := runMain(t, append([]string{"fit", "--data", glob, "--model", "hmm", "--out", out}, tc.args...)...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != tc.code || first != tc.want || stdout != "" || tc.code == 1 && strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: a model file was written", tc.args)
			os.Remove(out)
		}
	}
}
