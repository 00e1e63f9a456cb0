package naivebayes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
)

// mergeError returns the *gendisc.MergeError of naive Bayes: the
// accumulator of kind refuses statistics of other.
func mergeError(kind, other, reason string) error {
	return &gendisc.MergeError{Package: "naivebayes", Kind: kind, Other: other, Reason: reason}
}

// otherKind names the kind of an accumulator for a gendisc.MergeError.
func otherKind(o gendisc.Accumulator) string {
	switch o := o.(type) {
	case *GaussianAccumulator:
		return o.kind()
	case *Accumulator:
		return o.kind()
	}
	return fmt.Sprintf("%T", o)
}

// accumulatorJSON is the encoding of an accumulator: the model kind, the
// schema of the rows seen so far (null before the first), the source of
// the latest rows (for error messages), and the parameters of the kind's
// model file (settings and statistics; no statistics without a schema).
// Its floats are written as the shortest decimals that read back to the
// same bits, so that the encoding reads back bit-exactly.
type accumulatorJSON struct {
	Kind   string          `json:"kind"`
	Schema *data.Schema    `json:"schema"`
	Source string          `json:"source,omitempty"`
	Params json.RawMessage `json:"params"`
}

// encodeAccumulator returns the encoding of an accumulator of the given
// kind, schema and source whose model-file parameters are params.
func encodeAccumulator(kind string, schema *data.Schema, source string, params any) ([]byte, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return json.Marshal(accumulatorJSON{Kind: kind, Schema: schema, Source: source, Params: p})
}

// decodeAccumulator reads an encoding and checks its kind against kinds
// (any of them; a *gendisc.MergeError otherwise).
func decodeAccumulator(b []byte, kinds ...string) (*accumulatorJSON, error) {
	var j accumulatorJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("naivebayes: accumulator: %w", err)
	}
	for _, k := range kinds {
		if j.Kind == k {
			return &j, nil
		}
	}
	return nil, mergeError(kinds[0], fmt.Sprintf("%q", j.Kind), "an encoding of another kind")
}

// extend returns the schema of the rows of schema and of o together and
// the map of o's level indices into it (data.Schema.Extend), the error a
// *data.ParseError naming source.
func extend(schema, o *data.Schema, source string) (*data.Schema, *data.Remap, error) {
	s, r, err := schema.Extend(o)
	if err != nil {
		return nil, nil, &data.ParseError{File: source, Err: err}
	}
	return s, r, nil
}

// remapped returns index i under the level map m of a data.Remap (nil: the
// identity).
func remapped(m []int, i int) int {
	if m == nil {
		return i
	}
	return m[i]
}

// sameSettings returns a *gendisc.MergeError unless the settings a and b (the
// model-file parameters without statistics) encode the same.
func sameSettings(kind string, a, b any) error {
	x, err := json.Marshal(a)
	if err != nil {
		return err
	}
	y, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(x, y) {
		return mergeError(kind, kind, "other settings: "+settingsDiff(x, y))
	}
	return nil
}

// settingsDiff names the settings that differ between the JSON objects x
// and y, with both values: "text.ngrams {"min":1,"max":1} and
// {"min":1,"max":2}", joined by "; ". It descends into an object whose
// members include an object, and shows a value of scalars whole, so that
// a setting like --ngrams reads as one.
func settingsDiff(x, y []byte) string {
	var a, b any
	if json.Unmarshal(x, &a) != nil || json.Unmarshal(y, &b) != nil {
		return fmt.Sprintf("%s and %s", x, y)
	}
	var diffs []string
	var walk func(path string, a, b any)
	walk = func(path string, a, b any) {
		ma, okA := a.(map[string]any)
		mb, okB := b.(map[string]any)
		if okA && okB && (path == "" || hasObject(ma) || hasObject(mb)) {
			keys := slices.Sorted(maps.Keys(ma))
			for k := range mb {
				if _, ok := ma[k]; !ok {
					keys = append(keys, k)
				}
			}
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, ma[k], mb[k])
			}
			return
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			diffs = append(diffs, fmt.Sprintf("%s %s and %s", path, ja, jb))
		}
	}
	walk("", a, b)
	return strings.Join(diffs, "; ")
}

// hasObject reports whether a member of m is a JSON object.
func hasObject(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.(map[string]any); ok {
			return true
		}
	}
	return false
}
