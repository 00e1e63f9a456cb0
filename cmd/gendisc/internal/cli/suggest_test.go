package cli

import (
	"strings"
	"testing"
)

func TestOSADistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "fit", 3}, {"fit", "", 3}, {"fit", "fit", 0},
		{"fti", "fit", 1},       // one swap
		{"sampel", "sample", 1}, // one swap
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // OSA: 3 (unrestricted Damerau–Levenshtein: 2)
		{"modle", "model", 1},
		{"varience", "variance", 1},
		{"abcdef", "badcfe", 3},
	} {
		if got := osaDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
		if got := osaDistance(tc.b, tc.a); got != tc.d {
			t.Errorf("osaDistance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.d)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"fit", "predict", "sample", "score", "serve", "split", "datasets", "eval"}
	for _, tc := range []struct{ word, want string }{
		{"fti", " (did you mean fit?)"},
		{"ft", " (did you mean fit?)"},
		{"prdict", " (did you mean predict?)"},
		{"sc", " (did you mean score?)"},             // a prefix
		{"s", ""},                                    // too short to guess
		{"xyz", ""},                                  // nothing near
		{"sple", " (did you mean sample or split?)"}, // two at distance 2
		{"evl", " (did you mean eval?)"},
		{"data", " (did you mean datasets?)"},
		{"fitt", " (did you mean fit?)"},
		{"xx", ""}, // distance 2 from nothing shorter than 4
	} {
		if got := didYouMean(tc.word, names, same); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// TestSuggestions checks the suggestions on the command line, and that
// --version is the version command.
func TestSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		line string // the first line of stderr
	}{
		{[]string{"fti"}, `gendisc: unknown command "fti" (did you mean fit?)`},
		{[]string{"nosuch"}, `gendisc: unknown command "nosuch"`},
		{[]string{"help", "evl"}, `gendisc: unknown help topic "evl" (did you mean eval?)`},
		{[]string{"fit", "--data", "iris", "--modle", "lda"}, `gendisc fit: flag provided but not defined: --modle (did you mean --model?)`},
		{[]string{"fit", "--data", "iris", "--model", "gaussian-nb", "--varience", "feature"}, `gendisc fit: flag provided but not defined: --varience (did you mean --variance?)`},
		{[]string{"eval", "--jsno"}, `gendisc eval: flag provided but not defined: --jsno (did you mean --json?)`},
		{[]string{"eval", "--zzzz"}, `gendisc eval: flag provided but not defined: --zzzz`},
	} {
		r := runCLI(t, "", tc.args...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != exitUsage || first != tc.line {
			t.Errorf("gendisc %s: exit %d, stderr %q; want exit 2, first line %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.line)
		}
	}
	want := mustRun(t, "version")
	for _, flag := range []string{"--version", "-version"} {
		if got := mustRun(t, flag); got != want || !strings.HasPrefix(got, "gendisc ") {
			t.Errorf("gendisc %s = %q, gendisc version = %q", flag, got, want)
		}
	}
}
