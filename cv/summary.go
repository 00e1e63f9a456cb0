package cv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// tree is a JSON value that keeps the order of an object's keys, so that
// the mean and standard error of reports are written in the order of the
// reports' own keys.
type tree struct {
	keys   []string         // an object's keys, in order
	fields map[string]*tree // an object's values; nil for other values
	items  []*tree          // an array's items
	array  bool
	num    float64
	isNum  bool
	str    string
	isStr  bool
	// A null, a bool (not averaged) is a tree with none of the above.
}

// parseTree decodes the JSON b.
func parseTree(b []byte) (*tree, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return decodeTree(dec)
}

func decodeTree(dec *json.Decoder) (*tree, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		t := &tree{}
		if v == '[' {
			t.array = true
			for dec.More() {
				item, err := decodeTree(dec)
				if err != nil {
					return nil, err
				}
				t.items = append(t.items, item)
			}
		} else {
			t.fields = map[string]*tree{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				field, err := decodeTree(dec)
				if err != nil {
					return nil, err
				}
				t.keys = append(t.keys, k.(string))
				t.fields[k.(string)] = field
			}
		}
		_, err := dec.Token() // the closing delimiter
		return t, err
	case json.Number:
		f, err := v.Float64()
		return &tree{num: f, isNum: true}, err
	case string:
		return &tree{str: v, isStr: true}, nil
	}
	return &tree{}, nil
}

// summarize returns the mean and the standard error of the values ts,
// which have the same shape: objects key by key (in the order the keys
// first appear), arrays of equal length item by item, and numbers as
//
//	mean = (1/m) Σ_j x_j,  SE = s/√m,  s² = Σ_j (x_j − mean)² / (m − 1),
//
// over the m values that are numbers (a null, an undefined figure, is left
// out), null when m = 0 (and the SE when m = 1). A string equal in every
// value is kept as it is (a class name); other strings and booleans are
// left out, and so are arrays whose lengths differ.
func summarize(ts []*tree) (mean, se *tree) {
	var nums []float64
	var objects, arrays, strs []*tree
	for _, t := range ts {
		switch {
		case t.isNum:
			nums = append(nums, t.num)
		case t.fields != nil:
			objects = append(objects, t)
		case t.array:
			arrays = append(arrays, t)
		case t.isStr:
			strs = append(strs, t)
		}
	}
	switch {
	case len(objects) > 0:
		mean, se = &tree{fields: map[string]*tree{}}, &tree{fields: map[string]*tree{}}
		for _, o := range objects {
			for _, k := range o.keys {
				if _, done := mean.fields[k]; done {
					continue
				}
				var vs []*tree
				for _, p := range objects {
					if v, ok := p.fields[k]; ok {
						vs = append(vs, v)
					}
				}
				m, s := summarize(vs)
				if m == nil {
					mean.fields[k] = nil
					continue
				}
				mean.keys, se.keys = append(mean.keys, k), append(se.keys, k)
				mean.fields[k], se.fields[k] = m, s
			}
		}
		return mean, se
	case len(arrays) > 0:
		n := len(arrays[0].items)
		for _, a := range arrays {
			if len(a.items) != n {
				return nil, nil
			}
		}
		mean, se = &tree{array: true}, &tree{array: true}
		for i := range n {
			vs := make([]*tree, len(arrays))
			for j, a := range arrays {
				vs[j] = a.items[i]
			}
			m, s := summarize(vs)
			if m == nil {
				m, s = &tree{}, &tree{}
			}
			mean.items, se.items = append(mean.items, m), append(se.items, s)
		}
		return mean, se
	case len(strs) > 0:
		for _, s := range strs {
			if s.str != strs[0].str {
				return nil, nil
			}
		}
		return strs[0], strs[0]
	case len(nums) > 0:
		mean, sd := meanSD(nums)
		m := &tree{num: mean, isNum: true}
		if len(nums) < 2 {
			return m, &tree{}
		}
		return m, &tree{num: sd / math.Sqrt(float64(len(nums))), isNum: true}
	}
	return &tree{}, &tree{}
}

// meanSD returns the mean and the sample standard deviation (divisor
// n − 1) of x, by Welford's update.
func meanSD(x []float64) (mean, sd float64) {
	var m2 float64
	for i, v := range x {
		d := v - mean
		mean += d / float64(i+1)
		m2 += d * (v - mean)
	}
	if len(x) < 2 {
		return mean, math.NaN()
	}
	return mean, math.Sqrt(m2 / float64(len(x)-1))
}

// MarshalJSON writes t, its object keys in order, a number that is not
// finite as null.
func (t *tree) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	t.write(&b)
	return b.Bytes(), nil
}

func (t *tree) write(b *bytes.Buffer) {
	switch {
	case t.fields != nil:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(k)
			b.Write(q)
			b.WriteByte(':')
			t.fields[k].write(b)
		}
		b.WriteByte('}')
	case t.array:
		b.WriteByte('[')
		for i, v := range t.items {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	case t.isNum && !math.IsNaN(t.num) && !math.IsInf(t.num, 0):
		b.WriteString(strconv.FormatFloat(t.num, 'g', -1, 64))
	case t.isStr:
		q, _ := json.Marshal(t.str)
		b.Write(q)
	default:
		b.WriteString("null")
	}
}

// lookup returns the number at the path of object keys, and whether there
// is one.
func (t *tree) lookup(path []string) (float64, bool) {
	for _, k := range path {
		if t == nil || t.fields == nil {
			return 0, false
		}
		t = t.fields[k]
	}
	if t == nil || !t.isNum {
		return 0, false
	}
	return t.num, true
}

// reportTree returns the JSON of r as a tree.
func reportTree(r Report) (*tree, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("cv: %w", err)
	}
	return parseTree(b)
}
