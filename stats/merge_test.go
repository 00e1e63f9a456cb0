package stats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// shard is a set of rows whose labels index its own classes.
type shard struct {
	schema  *data.Schema
	x, y, w []float64
	global  []float64 // the labels in the union's numbering
}

// newShard returns n rows of d features of the given classes (labels in
// their order), the features' means and spreads depending on the class
// name, with some missing cells and weights of 0 to 3.
func newShard(rng *rand.Rand, classes []string, n, d int) *shard {
	s := &shard{schema: &data.Schema{Features: make([]data.Column, d),
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: classes}},
		x: make([]float64, n*d), y: make([]float64, n), w: make([]float64, n)}
	for j := range d {
		s.schema.Features[j] = data.Column{Name: string(rune('p' + j))}
	}
	for i := range n {
		l := rng.IntN(len(classes))
		c := float64(classes[l][0] - 'a')
		s.y[i] = float64(l)
		s.w[i] = float64(rng.IntN(4))
		for j := range d {
			v := 1000*float64(j) + 10*c + (1+c)*rng.NormFloat64()
			if j > 0 {
				v += s.x[i*d+j-1] / 500
			}
			s.x[i*d+j] = v
			if rng.IntN(40) == 0 {
				s.x[i*d+j] = math.NaN()
			}
		}
	}
	return s
}

// threeShards returns three shards whose classes come in different orders
// and the union of their schemas, with the class map of each shard into
// it and the shards' labels renumbered into it.
func threeShards(t *testing.T, d int) ([]*shard, []*data.Remap, *data.Schema) {
	rng := rand.New(rand.NewPCG(12, 1))
	shards := []*shard{
		newShard(rng, []string{"b", "a"}, 3000, d),
		newShard(rng, []string{"d", "c", "a"}, 2500, d),
		newShard(rng, []string{"c", "b", "d", "a"}, 4000, d),
	}
	union := shards[0].schema
	maps := []*data.Remap{nil}
	for _, s := range shards[1:] {
		u, r, err := union.Extend(s.schema)
		if err != nil {
			t.Fatal(err)
		}
		union = u
		maps = append(maps, r)
	}
	for i, s := range shards {
		s.global = make([]float64, len(s.y))
		for r, l := range s.y {
			s.global[r] = l
			if maps[i] != nil && maps[i].Target != nil {
				s.global[r] = float64(maps[i].Target[int(l)])
			}
		}
	}
	return shards, maps, union
}

func target(r *data.Remap) []int {
	if r == nil {
		return nil
	}
	return r.Target
}

// all returns the rows of every shard, labelled in the union's numbering.
func all(shards []*shard) (x, y, w []float64) {
	for _, s := range shards {
		x = append(x, s.x...)
		y = append(y, s.global...)
		w = append(w, s.w...)
	}
	return x, y, w
}

// relClose reports whether a and b agree to tol relative to the largest
// magnitude of a, b (equal when both are 0).
func relClose(a, b []float64, tol float64) bool {
	scale := 0.0
	for i := range a {
		scale = max(scale, math.Abs(a[i]), math.Abs(b[i]))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*scale {
			return false
		}
	}
	return len(a) == len(b)
}

// TestMomentsShardsRemapped accumulates three shards whose classes came in
// different orders, renumbers them into the union's classes (directly and
// through MarshalBinary), merges them and compares with the statistics of
// all rows (1e-12 relative, per feature and quantity) and, bit for bit,
// with the same shards accumulated in the union's numbering and merged.
func TestMomentsShardsRemapped(t *testing.T) {
	const d = 3
	shards, maps, union := threeShards(t, d)
	k := len(union.Classes())
	if k != 4 || maps[1].Target == nil || maps[2].Target == nil {
		t.Fatalf("want 4 classes and two class maps that are not the identity, got %v, %v", union.Classes(), maps)
	}
	merged, decoded, sequential := NewMoments(k, d), NewMoments(k, d), NewMoments(k, d)
	direct := NewMoments(k, d)
	for i, s := range shards {
		m := NewMoments(len(s.schema.Classes()), d)
		m.Add(s.x, s.y, s.w)
		before := m.Clone()
		direct.MergeRemap(m, target(maps[i]))
		if !reflect.DeepEqual(m, before) {
			t.Errorf("shard %d: MergeRemap changed the shard merged", i)
		}
		m.Remap(target(maps[i]), k)
		merged.Merge(m)

		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var o Moments
		if err := o.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		decoded.Merge(&o)

		g := NewMoments(k, d)
		g.Add(s.x, s.global, s.w)
		sequential.Merge(g)
	}
	if !reflect.DeepEqual(merged, sequential) || !reflect.DeepEqual(decoded, sequential) || !reflect.DeepEqual(direct, sequential) {
		t.Errorf("remapped and merged shards differ from the shards accumulated in the union's classes")
	}
	whole := NewMoments(k, d)
	whole.Add(all(shards))
	for name, p := range map[string][2][]float64{
		"ClassWeight": {merged.ClassWeight, whole.ClassWeight},
		"W":           {merged.W, whole.W}, "M": {merged.M, whole.M}, "S": {merged.S, whole.S},
	} {
		for c := range k {
			a, b := p[0], p[1]
			if name != "ClassWeight" {
				a, b = a[c*d:(c+1)*d], b[c*d:(c+1)*d]
			}
			if !relClose(a, b, 1e-12) {
				t.Errorf("%s of class %d: merged %v, all rows %v", name, c, a, b)
			}
		}
	}
}

// TestClassesShardsRemapped is TestMomentsShardsRemapped for Classes, with
// the fourth moments.
func TestClassesShardsRemapped(t *testing.T) {
	const d = 3
	shards, maps, union := threeShards(t, d)
	k := len(union.Classes())
	merged, decoded, sequential := NewClasses(k, d, true), NewClasses(k, d, true), NewClasses(k, d, true)
	direct := NewClasses(k, d, true)
	var incomplete int
	for i, s := range shards {
		c := NewClasses(len(s.schema.Classes()), d, true)
		inc, _ := c.Add(s.x, s.y, s.w)
		incomplete += len(inc)
		before := c.Clone()
		direct.MergeRemap(c, target(maps[i]))
		if !reflect.DeepEqual(c, before) {
			t.Errorf("shard %d: MergeRemap changed the shard merged", i)
		}
		c.Remap(target(maps[i]), k)
		merged.Merge(c)

		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var o Classes
		if err := o.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		decoded.Merge(&o)

		g := NewClasses(k, d, true)
		g.Add(s.x, s.global, s.w)
		sequential.Merge(g)
	}
	if !reflect.DeepEqual(merged, sequential) || !reflect.DeepEqual(decoded, sequential) || !reflect.DeepEqual(direct, sequential) {
		t.Errorf("remapped and merged shards differ from the shards accumulated in the union's classes")
	}
	whole := NewClasses(k, d, true)
	if inc, _ := whole.Add(all(shards)); len(inc) != incomplete || len(inc) == 0 {
		t.Errorf("%d incomplete rows of all rows, %d of the shards", len(inc), incomplete)
	}
	for c := range k {
		a, b := merged.Class[c], whole.Class[c]
		if a.N != b.N || !relClose([]float64{a.W}, []float64{b.W}, 1e-12) {
			t.Errorf("class %d: merged N %d W %v, all rows N %d W %v", c, a.N, a.W, b.N, b.W)
		}
		for name, p := range map[string][2][]float64{"Mean": {a.Mean, b.Mean}, "S": {a.S, b.S}, "M4": {a.M4, b.M4}} {
			if !relClose(p[0], p[1], 1e-12) {
				t.Errorf("%s of class %d: merged %v, all rows %v", name, c, p[0], p[1])
			}
		}
		// An odd moment cancels: its scale is that of the sum of the
		// absolute values of its terms, Σ w e_j² |e_l| ≤ √(M4[j,j]·S[l,l]).
		for j := range d {
			for l := range d {
				i := j*d + l
				if scale := math.Sqrt(b.M4[j*d+j] * b.S[l*d+l]); math.Abs(a.M3[i]-b.M3[i]) > 1e-12*scale {
					t.Errorf("M3[%d,%d] of class %d: merged %v, all rows %v (scale %g)", j, l, c, a.M3[i], b.M3[i], scale)
				}
			}
		}
	}
}

// roundTrip encodes v, decodes the bytes into fresh, and checks that the
// decoded value equals v and encodes to the same bytes (the floats bit for
// bit).
func roundTrip(t *testing.T, name string, v, fresh interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}) {
	t.Helper()
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := fresh.UnmarshalBinary(b); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	again, _ := fresh.MarshalBinary()
	if !bytes.Equal(b, again) || !reflect.DeepEqual(v, fresh) {
		t.Errorf("%s: decoded %+v, want %+v", name, fresh, v)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	x, y, w := randomRows(rng, 5000, 4, 3, true, true)
	one := make([]float64, len(y))
	full := NewMoments(3, 4)
	full.Add(x, y, w)
	grown := full.Clone()
	grown.Grow(5)
	single := NewMoments(1, 4)
	single.Add(x, one, w)
	for name, m := range map[string]*Moments{
		"no rows": NewMoments(2, 4), "no classes": NewMoments(0, 4), "no features": NewMoments(2, 0),
		"rows": full, "one class": single, "grown": grown,
	} {
		roundTrip(t, "Moments "+name, m, &Moments{})
	}

	cx, cy, cw := correlatedRows(rng, 3000, 4, 3)
	for _, fourth := range []bool{false, true} {
		c := NewClasses(3, 4, fourth)
		c.Add(cx, cy, cw)
		g := c.Clone()
		g.Grow(6)
		c1 := NewClasses(1, 4, fourth)
		c1.Add(cx, one[:len(cy)], cw)
		for name, c := range map[string]*Classes{
			"no rows": NewClasses(2, 4, fourth), "no features": NewClasses(2, 0, fourth),
			"rows": c, "one class": c1, "grown": g,
		} {
			roundTrip(t, "Classes "+name, c, &Classes{})
		}
		roundTrip(t, "Scatter", c.Total(), &Scatter{})
		roundTrip(t, "Scatter empty", NewScatter(4, fourth), &Scatter{})
		roundTrip(t, "Scatter of dimension 0", NewScatter(0, fourth), &Scatter{})
	}
	// With no class there is nowhere to keep the fourth moments.
	var c Classes
	if b, _ := NewClasses(0, 4, true).MarshalBinary(); c.UnmarshalBinary(b) != nil || c.D != 4 || c.K() != 0 {
		t.Errorf("Classes of no class: decoded %+v", c)
	}
}

// TestUnmarshalErrors checks that bytes that are not an encoding give an
// error wrapping ErrEncoding and leave the receiver unchanged.
func TestUnmarshalErrors(t *testing.T) {
	m := NewMoments(2, 3)
	m.ClassWeight[0] = 1
	good, _ := m.MarshalBinary()
	s := NewScatter(3, true)
	s.W = 2
	goodS, _ := s.MarshalBinary()
	c := NewClasses(2, 3, false)
	c.Class[1].W = 3
	goodC, _ := c.MarshalBinary()
	huge := func(b []byte, at int) []byte { // a count of 2^62 at word at
		b = bytes.Clone(b)
		b[4+8*at+7] = 0x40
		return b
	}
	word := func(b []byte, at int, v float64) []byte { // v at word at
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint64(b[4+8*at:], math.Float64bits(v))
		return b
	}
	cases := map[string]struct {
		b    []byte
		v    interface{ UnmarshalBinary([]byte) error }
		want any
	}{
		"empty":              {nil, m.Clone(), m},
		"other tag":          {goodS, m.Clone(), m},
		"truncated":          {good[:len(good)-8], m.Clone(), m},
		"partial word":       {good[:len(good)-3], m.Clone(), m},
		"left over":          {append(bytes.Clone(good), good[4:12]...), m.Clone(), m},
		"huge classes":       {huge(good, 1), m.Clone(), m},
		"huge features":      {huge(good, 0), m.Clone(), m},
		"Scatter cut":        {goodS[:len(goodS)-8], s.Clone(), s},
		"Scatter flag":       {huge(goodS, 1), s.Clone(), s},
		"Scatter huge":       {huge(goodS, 0), s.Clone(), s},
		"Classes cut":        {goodC[:len(goodC)-8], c.Clone(), c},
		"Classes huge K":     {huge(goodC, 1), c.Clone(), c},
		"Classes huge D":     {huge(goodC, 0), c.Clone(), c},
		"Classes of Moments": {good, c.Clone(), c},
		"NaN weight":         {word(good, 2, math.NaN()), m.Clone(), m},
		"infinite mean":      {word(goodS, 4, math.Inf(1)), s.Clone(), s},
	}
	for name, tc := range cases {
		if err := tc.v.UnmarshalBinary(tc.b); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: error %v, want ErrEncoding", name, err)
		}
		if !reflect.DeepEqual(tc.v, tc.want) {
			t.Errorf("%s: the receiver changed to %+v", name, tc.v)
		}
	}
}

// TestRemap checks the renumbering of classes against moving them by hand,
// and its panics.
func TestRemap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	x, y, w := randomRows(rng, 3000, 2, 3, true, true)
	m := NewMoments(3, 2)
	m.Add(x, y, w)
	r := m.Clone()
	r.Remap([]int{4, 0, 2}, 5)
	for l, t2 := range []int{4, 0, 2} {
		for j := range 2 {
			if r.At(t2, j) != m.At(l, j) || r.ClassWeight[t2] != m.ClassWeight[l] {
				t.Errorf("class %d → %d, feature %d: %v, want %v", l, t2, j, r.At(t2, j), m.At(l, j))
			}
		}
	}
	for _, e := range []int{1, 3} {
		if r.ClassWeight[e] != 0 || r.At(e, 0) != (Moment{}) || r.At(e, 1) != (Moment{}) {
			t.Errorf("class %d not empty: %v", e, r.At(e, 0))
		}
	}
	cx, cy, cw := correlatedRows(rng, 2000, 2, 3)
	c := NewClasses(3, 2, true)
	c.Add(cx, cy, cw)
	rc := c.Clone()
	rc.Remap([]int{1, 2, 0}, 4)
	if !reflect.DeepEqual(rc.Class[1], c.Class[0]) || !reflect.DeepEqual(rc.Class[0], c.Class[2]) ||
		!reflect.DeepEqual(rc.Class[3], NewScatter(2, true)) {
		t.Errorf("Classes.Remap moved the classes wrongly")
	}
	for name, f := range map[string]func(){
		"short map":    func() { m.Clone().Remap([]int{0, 1}, 3) },
		"twice":        func() { m.Clone().Remap([]int{0, 1, 1}, 3) },
		"out of range": func() { c.Clone().Remap([]int{0, 1, 3}, 3) },
		"negative":     func() { c.Clone().Remap([]int{0, -1, 2}, 3) },
		"shrink (nil)": func() { c.Clone().Remap(nil, 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
