package crf

import (
	"slices"
	"strings"
	"testing"
)

func names(item Item) []string {
	out := make([]string, len(item))
	for i, a := range item {
		if a.Value != 1 {
			panic("a template attribute of value other than 1")
		}
		out[i] = a.Name
	}
	return out
}

// TestTemplatesItems checks the attributes of every template by hand.
func TestTemplatesItems(t *testing.T) {
	tp, err := ParseTemplates(DefaultTemplates)
	if err != nil {
		t.Fatal(err)
	}
	items := tp.Items([]string{"The", "U.S.-based", "firm", "earned", "$1,000"})
	want := []string{"bias", "word=U.S.-based", "lower=u.s.-based",
		"prefix=1=U", "prefix=2=U.", "prefix=3=U.S", "prefix=4=U.S.",
		"suffix=1=d", "suffix=2=ed", "suffix=3=sed", "suffix=4=ased",
		"shape=X.X.-x", "cap=init", "hyphen",
		"lower@-1=the", "lower@+1=firm", "lower@-2=__BOS__", "lower@+2=earned"}
	if got := names(items[1]); !slices.Equal(got, want) {
		t.Errorf("item 2:\n got %q\nwant %q", got, want)
	}
	want = []string{"bias", "word=$1,000", "lower=$1,000",
		"prefix=1=$", "prefix=2=$1", "prefix=3=$1,", "prefix=4=$1,0",
		"suffix=1=0", "suffix=2=00", "suffix=3=000", "suffix=4=,000",
		"shape=$d,d", "digit=some",
		"lower@-1=earned", "lower@+1=__EOS__", "lower@-2=firm", "lower@+2=__EOS__"}
	if got := names(items[4]); !slices.Equal(got, want) {
		t.Errorf("item 5:\n got %q\nwant %q", got, want)
	}
	tp, _ = ParseTemplates("cap,digit,suffix:2")
	for _, c := range []struct {
		tok  string
		want []string
	}{
		{"NASA", []string{"cap=all", "suffix=1=A", "suffix=2=SA"}},
		{"iPhone", []string{"cap=inner", "suffix=1=e", "suffix=2=ne"}},
		{"1999", []string{"digit=all", "suffix=1=9", "suffix=2=99"}},
		{"é", []string{"suffix=1=é"}},
	} {
		if got := names(tp.Items([]string{c.tok})[0]); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.tok, got, c.want)
		}
	}
}

// TestTemplatesHashing checks that hashing maps names into the buckets,
// the same name to the same bucket.
func TestTemplatesHashing(t *testing.T) {
	tp, _ := ParseTemplates("word,lower")
	tp.Buckets = 4
	items := tp.Items([]string{"a", "a", "b"})
	for _, item := range items {
		for _, a := range item {
			if !slices.Contains([]string{"#0", "#1", "#2", "#3"}, a.Name) {
				t.Errorf("attribute %q not in 4 buckets", a.Name)
			}
		}
	}
	if !slices.Equal(names(items[0]), names(items[1])) {
		t.Errorf("the same word hashed to %q and %q", names(items[0]), names(items[1]))
	}
}

// TestParseTemplates checks the round trip of String and the errors.
func TestParseTemplates(t *testing.T) {
	tp, err := ParseTemplates(DefaultTemplates)
	if err != nil || tp.String() != DefaultTemplates {
		t.Errorf("String() = %q, %v", tp, err)
	}
	for spec, want := range map[string]string{
		"word,lemma":   `unknown name "lemma"`,
		"prefix":       "want prefix:N with N from 1 to 10",
		"suffix:11":    "want suffix:N",
		"word:2":       "word takes no :N",
		"lower@3":      `the offset "3" is not an integer from -2 to +2`,
		"word,word@+0": `template "word@+0" given twice`,
		"":             `unknown name ""`,
	} {
		if _, err := ParseTemplates(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", spec, err, want)
		}
	}
}

// TestMinFreq checks that rare attributes get no features.
func TestMinFreq(t *testing.T) {
	fs := buildFeatures(tinySeqs(), false, false, 2)
	if _, ok := fs.attrID["cap"]; ok {
		t.Error("the attribute cap, in one item, has features with min-freq 2")
	}
	if _, ok := fs.attrID["w=the"]; !ok {
		t.Error("the attribute w=the, in two items, has no features with min-freq 2")
	}
}
