package enum

import (
	"strings"
	"testing"
)

type color int

var colors = &Names[color]{Type: "color", What: "color", Prefix: "paint: ", List: []string{"red", "green", "blue"}}

func TestNames(t *testing.T) {
	for v, name := range []string{"red", "green", "blue"} {
		c := color(v)
		if got := colors.String(c); got != name {
			t.Errorf("String(%d) = %q", v, got)
		}
		if p, err := colors.Parse(name); err != nil || p != c {
			t.Errorf("Parse(%q) = %v, %v", name, p, err)
		}
		b, err := colors.MarshalText(c)
		var back color
		if err != nil || colors.UnmarshalText(&back, b) != nil || back != c {
			t.Errorf("%d: marshalled %q, %v; back %d", v, b, err, back)
		}
	}
	if got := colors.String(7); got != "color(7)" {
		t.Errorf("String(7) = %q", got)
	}
	if _, err := colors.MarshalText(-1); err == nil || err.Error() != "paint: unknown color -1" {
		t.Errorf("MarshalText(-1): %v", err)
	}
	back := color(2)
	err := colors.UnmarshalText(&back, []byte("mauve"))
	if err == nil || err.Error() != `paint: unknown color "mauve" (want red, green or blue)` || back != 2 {
		t.Errorf("UnmarshalText(mauve): %v, value %d", err, back)
	}
	one := &Names[color]{What: "color", List: []string{"red"}}
	if _, err := one.Parse("x"); err == nil || !strings.HasSuffix(err.Error(), "(want red)") {
		t.Errorf("one name: %v", err)
	}
}
