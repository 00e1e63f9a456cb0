package bundled

import (
	"testing"

	"github.com/gendisc/gendisc/data"
)

func TestLoad(t *testing.T) {
	d := Load(t, "iris", data.Options{Ignore: []string{"sepallength"}})
	if d.N != 150 || d.D() != 3 || len(d.Schema.Classes()) != 3 || d.Source != "iris" {
		t.Errorf("iris: %d rows, %d features, classes %q, source %q", d.N, d.D(), d.Schema.Classes(), d.Source)
	}
}
