package cli

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// snakeCase is the one style of the keys of every --json output.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// dataKeyed are the paths of the objects whose keys are data, not names
// of fields: mda's mixtures are keyed by class.
var dataKeyed = map[string]bool{".parameters.mixtures": true}

// jsonKeys appends to bad the path of every object key in v that is not
// snake_case.
func jsonKeys(v any, path string, bad []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if !dataKeyed[path] && !snakeCase.MatchString(k) {
				bad = append(bad, path+"."+k)
			}
			bad = jsonKeys(x, path+"."+k, bad)
		}
	case []any:
		for _, x := range v {
			bad = jsonKeys(x, path+"[]", bad)
		}
	}
	return bad
}

// checkJSONKeys fails when out is not JSON or has a key that is not
// snake_case.
func checkJSONKeys(t *testing.T, what, out string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if bad := jsonKeys(v, "", nil); len(bad) > 0 {
		t.Errorf("%s: keys not in snake_case: %s", what, strings.Join(bad, ", "))
	}
}

func TestJSONKeysSnakeCase(t *testing.T) {
	if bad := jsonKeys(map[string]any{"ok_key": []any{map[string]any{"FeatureTypes": 1}}}, "", nil); len(bad) != 1 || bad[0] != ".ok_key[].FeatureTypes" {
		t.Fatalf("jsonKeys finds %q", bad)
	}
	checkJSONKeys(t, "datasets --json", mustRun(t, "datasets", "--json"))
	for _, name := range kindNames() {
		t.Run(name, func(t *testing.T) {
			ds := cmp.Or(kindData[name], "iris")
			model := filepath.Join(t.TempDir(), "m.json")
			mustRun(t, append([]string{"fit", "--data", ds, "--model", name, "--out", model}, kindFitFlags[name]...)...)
			checkJSONKeys(t, "inspect --json", mustRun(t, "inspect", "--model", model, "--json"))
			// eval needs classes or values (not gmm), score a generative
			// model (not logistic or linear): each runs where it applies.
			ran := 0
			for _, cmd := range []string{"eval", "score"} {
				if r := runCLI(t, "", cmd, "--model", model, "--data", ds, "--json"); r.code == 0 {
					checkJSONKeys(t, cmd+" --json", r.stdout)
					ran++
				}
			}
			if ran == 0 {
				t.Errorf("neither eval nor score --json ran on a %s model", name)
			}
		})
	}
}
