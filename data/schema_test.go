package data

import (
	"strings"
	"testing"
)

func TestSameFeatures(t *testing.T) {
	model := &Schema{Features: []Column{
		{Name: "a", Kind: Numeric},
		{Name: "c", Kind: Categorical, Levels: []string{"x", "y"}},
		{Name: "t", Kind: Text},
	}, Target: &Column{Name: "y", Kind: Categorical, Levels: []string{"p", "q"}}}
	if err := model.SameFeatures(model); err != nil {
		t.Fatalf("same schema: %v", err)
	}
	// Another target, or none, and other level names do not matter.
	other := model.Clone()
	other.Target = nil
	other.Features[1].Levels = []string{"u", "v"}
	other.Features[0].Integral = true
	if err := model.SameFeatures(other); err != nil {
		t.Fatalf("same features: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(s *Schema)
		want string
	}{
		{"count", func(s *Schema) { s.Features = s.Features[:2] }, "data set has 2 features, the model 3"},
		{"name", func(s *Schema) { s.Features[0].Name = "b" }, `feature 0 is "b", the model's is "a"`},
		{"order", func(s *Schema) { s.Features[0], s.Features[1] = s.Features[1], s.Features[0] }, `feature 0 is "c", the model's is "a"`},
		{"kind", func(s *Schema) { s.Features[0].Kind = Categorical }, `feature "a" is categorical, the model's is numeric`},
		{"levels", func(s *Schema) { s.Features[1].Levels = []string{"x"} }, `categorical feature "c" has 1 levels, the model's 2`},
	} {
		s := model.Clone()
		c.edit(s)
		err := model.SameFeatures(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
