package seq

import (
	"reflect"
	"testing"
)

func TestSchema(t *testing.T) {
	c := &Corpus{Sentences: []Sentence{
		{Tokens: []string{"the", "dog"}, Tags: []string{"DET", "NOUN"}},
		{Tokens: []string{"barks", "the"}},
	}}
	if got := c.Tokens(); got != 4 {
		t.Errorf("Tokens %d", got)
	}
	if len(c.Tagged()) != 1 || len(c.Untagged()) != 1 || c.Untagged()[0].Tokens[0] != "barks" {
		t.Errorf("Tagged %v, Untagged %v", c.Tagged(), c.Untagged())
	}
	s := NewSchema(c.Sentences)
	want := &Schema{Tags: []string{"DET", "NOUN"}, Words: []string{"barks", "dog", "the"}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("NewSchema %+v, want %+v", s, want)
	}
	u := s.Union(&Schema{Tags: []string{"ADJ", "NOUN"}, Words: []string{"a"}})
	if want := (&Schema{Tags: []string{"ADJ", "DET", "NOUN"}, Words: []string{"a", "barks", "dog", "the"}}); !reflect.DeepEqual(u, want) {
		t.Errorf("Union %+v, want %+v", u, want)
	}
	if !Sorted(u.Words) || Sorted([]string{"b", "a"}) || Sorted([]string{"a", "a"}) {
		t.Error("Sorted")
	}
	if got := Index(u.Tags); got["NOUN"] != 2 {
		t.Errorf("Index %v", got)
	}
}
