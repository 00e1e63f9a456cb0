package crf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestDataRoundTrip checks that WriteData and ReadData give back the
// sequences, with escaped colons and backslashes and non-unit values.
func TestDataRoundTrip(t *testing.T) {
	seqs := append(tinySeqs(), Sequence{
		Items:  []Item{{{`a:b`, 1}, {`c\d`, -0.25}, {`x\:y:`, 1e-300}}},
		Labels: []string{"L:1"},
	})
	var buf bytes.Buffer
	if err := WriteData(&buf, seqs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "L:1\ta\\:b\tc\\\\d:-0.25\tx\\\\\\:y\\::1e-300\n") {
		t.Errorf("the escaped line is missing from\n%s", buf.String())
	}
	got, err := ReadData(&buf, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, seqs) {
		t.Errorf("read back\n%v\nwant\n%v", got, seqs)
	}
}

// TestReadDataErrors checks the positioned errors of malformed items.
func TestReadDataErrors(t *testing.T) {
	for input, want := range map[string]string{
		"N\tw=a\tbias:1x\n":   `f.txt:1:3: attribute "bias:1x": the value "1x" is not a finite number`,
		"N\ta\n\nV\tb:NaN\n":  `f.txt:3:2: attribute "b:NaN": the value "NaN" is not a finite number`,
		"N\ta\tb:\n":          `f.txt:1:3: attribute "b:": the value "" is not a finite number`,
		"N\t:2\n":             `f.txt:1:2: attribute ":2": an empty name`,
		"N\ta\\b\n":           `f.txt:1:2: attribute "a\\b": a backslash not followed by ':' or '\'`,
		"N\ta\n\tb:1e999\n\n": `f.txt:2:2: attribute "b:1e999"`,
	} {
		_, err := ReadData(strings.NewReader(input), "f.txt")
		var pe *data.ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", input, err, want)
		}
	}
}

// FuzzReadData checks that ReadData refuses with one line or reads
// sequences that WriteData writes and ReadData reads back the same.
// Longer:
//
//	go test -run '^$' -fuzz FuzzReadData -fuzztime 60s ./crf
func FuzzReadData(f *testing.F) {
	f.Add("N\tw=a\tbias\nV\tb:0.5\n\nD\ta\\:b\\\\c:-2\n")
	f.Add("N\tx:1e999\n")
	f.Add("\n\n\tonly\n")
	f.Fuzz(func(t *testing.T, input string) {
		seqs, err := ReadData(strings.NewReader(input), "f")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a refusal of more than one line: %q", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteData(&buf, seqs); err != nil {
			return // a name with a line break cannot come from ReadData; others can't be written
		}
		again, err := ReadData(&buf, "again")
		if err != nil {
			t.Fatalf("%v reading back\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(normaliseEmpty(again), normaliseEmpty(seqs)) {
			t.Fatalf("read back %v, want %v", again, seqs)
		}
	})
}

// normaliseEmpty makes empty items nil, as ReadData may give either.
func normaliseEmpty(seqs []Sequence) []Sequence {
	for i := range seqs {
		for t := range seqs[i].Items {
			if len(seqs[i].Items[t]) == 0 {
				seqs[i].Items[t] = nil
			}
		}
	}
	return seqs
}
