package dataio

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// mostlyNumbers is a file whose column b holds numbers but for one word on
// line lineOops, and whose column c holds words.
func mostlyNumbers(rows int) (src string, lineOops int) {
	var b strings.Builder
	b.WriteString("a,b,c,y\n")
	for i := range rows {
		fmt.Fprintf(&b, "%d.5,%d.25,w%d,c%d\n", i, i%7, i%3, i%2)
	}
	b.WriteString("1,oops,w1,c1\n2,,w2,c0\n")
	return b.String(), rows + 2
}

func TestReadNumericForced(t *testing.T) {
	src, line := mostlyNumbers(30)
	_, err := read(t, src, Options{Numeric: []string{"b"}})
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, data.ErrNotNumber) {
		t.Fatalf("got %v, want a ParseError wrapping ErrNotNumber", err)
	}
	want := fmt.Sprintf(`t.csv:%d:2: column "b": not a number: "oops"`, line)
	if err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	d, err := read(t, "a,b,y\n1,2,x\n,3.5,z\n", Options{Numeric: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema.Features[0].Kind != data.Numeric || !d.Schema.Features[0].Integral || d.Schema.Features[1].Integral {
		t.Errorf("features %+v", d.Schema.Features)
	}
	checkFloats(t, "X", d.X, []float64{1, 2, nan, 3.5})
	if _, err := read(t, "a,b,y\n1,2,x\n", Options{Numeric: []string{"a"}, Categorical: []string{"a"}}); err == nil {
		t.Error("a column both numeric and categorical was accepted")
	}
}

func TestReadMostlyNumericWarning(t *testing.T) {
	src, line := mostlyNumbers(30)
	d, err := read(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema.Features[1].Kind != data.Categorical {
		t.Fatalf("b is %v", d.Schema.Features[1].Kind)
	}
	if len(d.Source.Warnings) != 1 {
		t.Fatalf("warnings %q, want one about b", d.Source.Warnings)
	}
	w := d.Source.Warnings[0]
	want := fmt.Sprintf(`t.csv:%d:2: column "b": read as categorical, though mostly numbers: 30 of its 31 values are numbers, the first that is not is "oops"`, line)
	if !errors.Is(w, data.ErrMostlyNumeric) || w.Error() != want {
		t.Errorf("got  %v\nwant %s", w, want)
	}
	// Forced categorical, or below 95% numbers (18 of 19): no warning.
	for _, tc := range []struct {
		rows int
		opt  Options
	}{{30, Options{Categorical: []string{"b"}}}, {18, Options{}}} {
		src, _ := mostlyNumbers(tc.rows)
		d, err := read(t, src, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if d.Source.Warnings != nil {
			t.Errorf("%d rows, %+v: warnings %q", tc.rows, tc.opt, d.Source.Warnings)
		}
	}
}

func TestReadColumnsAndCellError(t *testing.T) {
	d, err := read(t, "y,skip,a,b\nx,1,2,3\nz,1,4,-5\n", Options{Target: "y", Ignore: []string{"skip"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Source.Columns, []int{3, 4}) {
		t.Errorf("Columns %v, want [3 4]", d.Source.Columns)
	}
	got := d.CellError(1, 1, errors.New("negative count")).Error()
	if want := `t.csv:3:4: column "b": negative count`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	s, err := readSchemaAll(t, "b,a,y\n1,2,x\n", d.Schema, SchemaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Source.Columns, []int{2, 1}) {
		t.Errorf("schema read: Columns %v, want [2 1]", s.Source.Columns)
	}
}

func TestReadWithSchemaUnseenClassMissing(t *testing.T) {
	src := "num,color,note,class\n1,red,a,maybe\n2,green,b,yes\n"
	if _, err := readSchemaAll(t, src, trained(), SchemaOptions{}); !errors.Is(err, data.ErrUnseenClass) {
		t.Fatalf("without UnseenClassMissing: %v, want ErrUnseenClass", err)
	}
	d, err := readSchemaAll(t, src, trained(), SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "Y", d.Y, []float64{nan, 1})
	if d.Source.Unseen != nil {
		t.Errorf("Unseen %v counts the class", d.Source.Unseen)
	}
}
