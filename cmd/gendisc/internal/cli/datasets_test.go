package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatasetsJSON checks that datasets --json gives each data set's
// licence and citation as separate fields.
func TestDatasetsJSON(t *testing.T) {
	var all []struct{ Name, Kind, License, Citation string }
	if err := json.Unmarshal([]byte(mustRun(t, "datasets", "--json")), &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 14 || all[12].Kind != "corpus" || all[13].Name != "tinyshakespeare" || all[11].Kind != "" {
		t.Fatalf("%d entries, want 12 data sets, then the corpora shakespeare_speeches and tinyshakespeare: %+v", len(all), all)
	}
	for _, d := range all {
		if d.License == "" || d.Citation == "" || strings.Contains(d.Citation, "LICENSE") || strings.Contains(d.Citation, "Package:") {
			t.Errorf("%s: licence %q, citation %q", d.Name, d.License, d.Citation)
		}
		if d.Name == "iris" && (d.License != "Package: GPL-2+ (debian/copyright, University of Waikato)." ||
			d.Citation != "ARFF header is the UCI description; Fisher (1936); donor M. Marshall.") {
			t.Errorf("iris: licence %q, citation %q", d.License, d.Citation)
		}
	}
}

// TestCorpora: the text corpora are listed, exported and read by name
// as the data sets are.
func TestCorpora(t *testing.T) {
	list := mustRun(t, "datasets")
	for _, want := range []string{
		"\nshakespeare_speeches  1.1 MB  CSV         Shakespeare's text is in the public domain.\n",
		"\ntinyshakespeare       1.1 MB  plain text  Shakespeare's text is in the public domain; the collection's repository is MIT-licensed.\n",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("gendisc datasets lacks %q", want)
		}
	}
	if out := mustRun(t, "datasets", "export", "tinyshakespeare", "--out", "-"); len(out) != 1115394 || !strings.HasPrefix(out, "First Citizen:\nBefore we proceed any further, hear me speak.\n") {
		t.Errorf("datasets export tinyshakespeare: %d bytes starting %.40q", len(out), out)
	}
	if out := mustRun(t, "datasets", "export", "shakespeare_speeches", "--format", "jsonl", "--out", "-"); strings.Count(out, "\n") != 7095 {
		t.Errorf("datasets export shakespeare_speeches --format jsonl: %d lines, want 7095", strings.Count(out, "\n"))
	}
	model := filepath.Join(t.TempDir(), "speakers.json")
	mustRun(t, "fit", "--data", "shakespeare_speeches", "--model", "multinomial-nb", "--out", model)
	if out := mustRun(t, "inspect", "--model", model); !strings.Contains(out, "GLOUCESTER") {
		t.Errorf("a model fitted on shakespeare_speeches: no class GLOUCESTER in\n%.300s", out)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"datasets", "export", "tinyshakespeare", "--format", "parquet", "--out", "-"}, 2,
			"gendisc datasets: datasets export: tinyshakespeare is plain text, not a table: --format parquet does not apply\n"},
		{[]string{"fit", "--data", "tinyshakespeare", "--model", "qda", "--out", "-"}, 1,
			"gendisc: tinyshakespeare: a bundled corpus of plain text, not a table: --model ngram reads it (gendisc fit --data tinyshakespeare --model ngram)\n"},
	} {
		r := runCLI(t, "", tc.args...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != tc.code || first+"\n" != tc.want {
			t.Errorf("gendisc %s: exit %d, stderr %q, want exit %d and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.code, tc.want)
		}
	}
}
