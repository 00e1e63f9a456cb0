package dataio

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestUnionAsConcatenated reads three files, and their concatenation,
// and checks that the union of the three inferred schemas, with the file
// whose column is numeric read again with it forced categorical, is the
// schema Read infers for the concatenation.
func TestUnionAsConcatenated(t *testing.T) {
	files := []string{
		"x,c,g,y\n1,10,b,yes\n2,2,a,no\n",
		"x,c,g,y\n3,1,c,maybe\n4,3,a,no\n",
		"x,c,g,y\n5.5,x,b,yes\n",
	}
	read := func(s string, opt Options) *data.Schema {
		t.Helper()
		d, err := Read(strings.NewReader(s), "f", opt)
		if err != nil {
			t.Fatal(err)
		}
		return d.Schema
	}
	all := read(files[0]+files[1][len("x,c,g,y\n"):]+files[2][len("x,c,g,y\n"):], Options{})
	u := read(files[0], Options{})
	for _, f := range files[1:] {
		var err error
		if u, err = u.Union(read(f, Options{})); err != nil {
			t.Fatal(err)
		}
	}
	if u.Features[1].Kind != data.Categorical || !reflect.DeepEqual(u.Features[1].Levels, []string{"x"}) {
		t.Fatalf("c after the first union: %+v, want categorical [x]", u.Features[1])
	}
	// The files where c was numeric, read again with c categorical.
	for _, f := range files[:2] {
		var err error
		if u, err = u.Union(read(f, Options{Categorical: []string{"c"}})); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(u, all) {
		t.Errorf("union\n%+v\nwant Read's schema of the concatenation\n%+v", u, all)
	}
	if got := u.Features[1].Levels; !reflect.DeepEqual(got, []string{"1", "10", "2", "3", "x"}) {
		t.Errorf("levels of c %q, want bytewise order", got)
	}
	if got := u.Features[0]; got.Kind != data.Numeric || got.Integral {
		t.Errorf("x %+v, want numeric, not integral", got)
	}
}

func TestUnionNumericLevels(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Categorical, Levels: []string{"2", "10"}}}}
	o := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Categorical, Levels: []string{"1", "2", "9"}}}}
	u, err := s.Union(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Features[0].Levels; !reflect.DeepEqual(got, []string{"1", "2", "9", "10"}) {
		t.Errorf("levels %q, want numeric order", got)
	}
	if !reflect.DeepEqual(s.Features[0].Levels, []string{"2", "10"}) {
		t.Errorf("s changed: %q", s.Features[0].Levels)
	}
	tx := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Text}}}
	if u, _ := s.Union(tx); u.Features[0].Kind != data.Text || u.Features[0].Levels != nil {
		t.Errorf("categorical ∪ text = %+v, want text without levels", u.Features[0])
	}
}

func TestUnionMismatch(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "a"}}, Target: &data.Column{Name: "y", Kind: data.Categorical}}
	for _, o := range []*data.Schema{
		{Features: []data.Column{{Name: "a"}, {Name: "b"}}, Target: s.Target},
		{Features: []data.Column{{Name: "b"}}, Target: s.Target},
		{Features: []data.Column{{Name: "a"}}},
		{Features: []data.Column{{Name: "a"}}, Target: &data.Column{Name: "z", Kind: data.Categorical}},
	} {
		_, err := s.Union(o)
		var se *data.SchemaError
		if !errors.As(err, &se) || !errors.Is(err, data.ErrSchema) {
			t.Errorf("Union(%+v): %v, want a *SchemaError", o, err)
		}
	}
}
