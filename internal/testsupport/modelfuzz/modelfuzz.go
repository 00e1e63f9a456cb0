// Package modelfuzz is the fuzz test of the model files of one kind: it
// starts from the file of a small fitted model, lets the fuzzer change the
// schema's and the parameters' JSON (bytes, and numbers replaced by
// extremes such as 1e308, -1, 0 and "NaN"), recomputes the checksum
// (modelfile.Encode) so that the changed file reaches the kind's decoder,
// and decodes it with package registry, as every command and the server
// do. A file that decodes must give a model that works: finite
// probabilities that sum to one for a few rows, joint log-likelihoods that
// are not NaN, an accumulator that encodes and merges, a model file that
// reads back, and whatever the family adds (Target.Calls). A refusal must
// be one line. A panic, or a decoder's panic that package registry
// recovered (*registry.PanicError), fails the test.
//
// A family's test file declares one target per kind:
//
//	// go test -fuzz FuzzLDAFile -fuzztime 60s ./gda
//	func FuzzLDAFile(f *testing.F) {
//		modelfuzz.Run(f, modelfuzz.Target{Model: fitted, Rows: rows})
//	}
//
// Under plain go test a target runs over its seeds: the unchanged file and
// one extreme in place of each of its first numbers.
package modelfuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
)

// Extremes are the JSON values that a fuzz input puts in place of one
// number of the parameters.
var Extremes = []string{"1e308", "-1e308", "-1", "0", "-0", "1", "2", "0.5", "5e-324", "1e-300", "1e154", "-1e154",
	"1e20", "9007199254740993", `"NaN"`, `"+Inf"`, `"-Inf"`, "null", `"x"`, "[]", "{}"}

// SumTol bounds |Σ_k P(y = k | x) − 1| for a model that a file gives.
const SumTol = 1e-9

// seeds is the number of numbers of the parameters that get a seed with
// an extreme in their place.
const seeds = 48

// Target is the kind under test.
type Target struct {
	// Model is a fitted model of the kind, small: its file is the seed.
	Model modelfile.Persistent
	// Rows are a few rows with the model's features, to predict.
	Rows *data.Dataset
	// Calls, when set, makes the family's own calls on a decoded model
	// (what inspect, sample or transform call), failing t on a wrong
	// result; a panic fails the test by itself.
	Calls func(t *testing.T, m gendisc.Model, rows *data.Dataset)
}

// Run adds the seeds of tg to f and fuzzes the decoder of tg's kind.
func Run(f *testing.F, tg Target) {
	kind := tg.Model.Kind()
	schema, err := json.Marshal(tg.Model.Schema())
	if err != nil {
		f.Fatal(err)
	}
	params, err := tg.Model.MarshalJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(schema, params, uint16(0), uint8(0))
	n := numbers(params)
	for i := range min(n, seeds) {
		f.Add(schema, params, uint16(i*n/min(n, seeds)+1), uint8(i%len(Extremes)))
	}
	f.Fuzz(func(t *testing.T, schema, params []byte, at uint16, extreme uint8) {
		if at > 0 {
			params = replaceNumber(params, int(at-1), Extremes[int(extreme)%len(Extremes)])
		}
		t.Logf("parameters %.2000s", params)
		var s *data.Schema
		if json.Unmarshal(schema, &s) != nil || s == nil {
			return
		}
		file, err := modelfile.Encode(kind, s, params)
		if err != nil {
			return // parameters that are not JSON: the file's own syntax error
		}
		m, err := registry.Read(bytes.NewReader(file), "fuzz.json")
		if err != nil {
			if pe := (*registry.PanicError)(nil); errors.As(err, &pe) {
				t.Fatalf("%v\n%s", err, pe.Stack)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the refusal is not one line: %q", err)
			}
			return
		}
		Check(t, m, tg.Rows, tg.Calls)
	})
}

// Check checks that the model m, decoded from a file, works: on rows,
// when they have m's features, and through its accumulator and its file,
// with calls for what the family adds (may be nil).
func Check(t *testing.T, m gendisc.Model, rows *data.Dataset, calls func(*testing.T, gendisc.Model, *data.Dataset)) {
	t.Helper()
	check(t, m, rows, calls, true)
}

func check(t *testing.T, m gendisc.Model, rows *data.Dataset, calls func(*testing.T, gendisc.Model, *data.Dataset), again bool) {
	t.Helper()
	if m.Schema().SameFeatures(rows.Schema) == nil {
		predictions(t, m, rows)
		if calls != nil {
			calls(t, m, rows)
		}
	}
	if p, ok := m.(modelfile.Persistent); ok {
		var buf bytes.Buffer
		if err := modelfile.Write(&buf, p); err != nil {
			t.Fatalf("writing the model read from a file: %v", err)
		}
		if _, err := registry.Read(&buf, "again.json"); err != nil {
			t.Fatalf("the file written of a model read from a file does not read: %v", err)
		}
	}
	mg, ok := m.(gendisc.Mergeable)
	if !ok || !again {
		return
	}
	acc := mg.Accumulator()
	b, err := acc.MarshalBinary()
	if err != nil {
		t.Fatalf("encoding the accumulator: %v", err)
	}
	if err := mg.Accumulator().UnmarshalBinary(b); err != nil {
		t.Fatalf("decoding the encoding of the accumulator: %v", err)
	}
	if acc.Merge(mg.Accumulator()) != nil {
		return // statistics too large to add up twice, say
	}
	if merged, err := acc.Model(); err == nil {
		check(t, merged, rows, calls, false)
	}
}

// predictions checks what a model predicts of rows: probabilities in
// [0, 1] that sum to one, joint log-likelihoods that are not NaN or +Inf,
// finite predicted values.
func predictions(t *testing.T, m gendisc.Model, rows *data.Dataset) {
	t.Helper()
	if c, ok := m.(gendisc.Classifier); ok {
		K := len(c.Classes())
		lp := c.LogProba(nil, rows)
		for i := range rows.N {
			sum := 0.0
			for _, l := range lp[i*K : (i+1)*K] {
				if !(l <= 0) {
					t.Fatalf("row %d: log-probabilities %v", i, lp[i*K:(i+1)*K])
				}
				sum += math.Exp(l)
			}
			if math.Abs(sum-1) > SumTol {
				t.Fatalf("row %d: probabilities sum to %v (log-probabilities %v)", i, sum, lp[i*K:(i+1)*K])
			}
		}
	}
	if g, ok := m.(gendisc.Generative); ok {
		for i, l := range g.JointLogLikelihood(nil, rows) {
			if math.IsNaN(l) || math.IsInf(l, 1) {
				t.Fatalf("joint log-likelihood %v at %d", l, i)
			}
		}
	}
	if r, ok := m.(gendisc.Regressor); ok { // and gendisc.Clusterer, whose Predict has its signature
		for i, y := range r.Predict(nil, rows) {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				t.Fatalf("row %d: predicted value %v", i, y)
			}
		}
	}
}

// numbers returns the number of JSON numbers in the valid JSON b.
func numbers(b []byte) int {
	n := 0
	forNumbers(b, func(_, _ int) bool { n++; return true })
	return n
}

// replaceNumber returns b with its number i (from 0, in the order of the
// text, modulo the count) replaced by v; b itself when b has no number.
func replaceNumber(b []byte, i int, v string) []byte {
	n := numbers(b)
	if n == 0 {
		return b
	}
	i %= n
	var out []byte
	forNumbers(b, func(start, end int) bool {
		if i > 0 {
			i--
			return true
		}
		out = append(append(append(out, b[:start]...), v...), b[end:]...)
		return false
	})
	return out
}

// forNumbers calls f with the start and end of each number of the JSON
// text b, outside strings, until f returns false.
func forNumbers(b []byte, f func(start, end int) bool) {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' || '0' <= c && c <= '9':
			j := i + 1
			for j < len(b) && strings.IndexByte("0123456789.eE+-", b[j]) >= 0 {
				j++
			}
			if !f(i, j) {
				return
			}
			i = j - 1
		}
	}
}

// Bundled reads the bundled data set name (package datasets) with opt,
// failing tb on an error.
func Bundled(tb testing.TB, name string, opt dataio.Options) *data.Dataset {
	tb.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	d, err := dataio.Read(r, name, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// Rows returns n rows of d spread over it and, with missing, one more: a
// copy of the first with its first numeric cell missing.
func Rows(d *data.Dataset, n int, missing bool) *data.Dataset {
	idx := make([]int, 0, n+1)
	for i := range n {
		idx = append(idx, i*d.N/n)
	}
	if !missing {
		return d.Subset(idx)
	}
	rows := d.Subset(append(idx, 0))
	for j, c := range d.Schema.Features {
		if c.Kind == data.Numeric {
			rows.X[n*d.D()+j] = math.NaN()
			break
		}
	}
	return rows
}
