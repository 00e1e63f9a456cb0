package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDatasetsJSON checks that datasets --json gives each data set's
// licence and citation as separate fields.
func TestDatasetsJSON(t *testing.T) {
	var all []struct{ Name, License, Citation string }
	if err := json.Unmarshal([]byte(mustRun(t, "datasets", "--json")), &all); err != nil {
		t.Fatal(err)
	}
	if len(all) != 12 {
		t.Fatalf("%d data sets, want 12", len(all))
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
