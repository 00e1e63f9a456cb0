package bundled

import (
	"testing"

	"github.com/gendisc/gendisc/dataio"
)

func TestLoad(t *testing.T) {
	d := Load(t, "iris", dataio.Options{Ignore: []string{"sepallength"}})
	if d.N != 150 || d.D() != 3 || len(d.Schema.Classes()) != 3 || d.Source.Name != "iris" {
		t.Errorf("iris: %d rows, %d features, classes %q, source %q", d.N, d.D(), d.Schema.Classes(), d.Source)
	}
}

func TestLoadSchema(t *testing.T) {
	iris := Load(t, "iris", dataio.Options{})
	s := iris.Schema.Clone()
	s.Target.Levels = []string{"Iris-virginica", "Iris-setosa", "Iris-versicolor"}
	d := LoadSchema(t, "iris", s, dataio.SchemaOptions{})
	if d.N != iris.N || d.Y[0] != 1 || iris.Y[0] != 0 || d.Source.Name != "iris" {
		t.Errorf("iris with a schema: %d rows, first class %v (%v without), source %q", d.N, d.Y[0], iris.Y[0], d.Source)
	}
}
