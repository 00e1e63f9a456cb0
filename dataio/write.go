package dataio

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/gendisc/gendisc/data"
	"github.com/parquet-go/parquet-go"
)

// outColumn is a column of d as WriteParquet and WriteJSONLines write it.
type outColumn struct {
	name    string
	col     *data.Column // nil for the weight
	vals    []float64
	stride  int // of vals
	off     int // offset of the column in each row of vals
	text    []string
	integer bool
}

// outColumns lists the columns of d: the features in the schema's order,
// then the target when d has one, then the weights, named weight, when
// d has them.
func outColumns(d *data.Dataset, weight string) []outColumn {
	D := d.D()
	var cols []outColumn
	for j := range d.Schema.Features {
		c := &d.Schema.Features[j]
		oc := outColumn{name: c.Name, col: c, vals: d.X, stride: D, off: j, integer: c.Kind == data.Numeric && c.Integral}
		if c.Kind == data.Text && d.Text != nil {
			oc.text = d.Text[j]
		}
		cols = append(cols, oc)
	}
	if d.Y != nil && d.Schema.Target != nil {
		c := d.Schema.Target
		cols = append(cols, outColumn{name: c.Name, col: c, vals: d.Y, stride: 1, integer: c.Kind == data.Numeric && c.Integral})
	}
	if d.Weight != nil {
		cols = append(cols, outColumn{name: weight, vals: d.Weight, stride: 1})
	}
	return cols
}

// stringValued reports whether the column is written as strings.
func (c *outColumn) stringValued() bool {
	return c.col != nil && c.col.Kind != data.Numeric
}

// value returns cell i of the column: a number, or a string for a
// categorical or text column; missing reports a missing cell.
func (c *outColumn) value(i int) (v float64, s string, missing bool) {
	if c.text != nil {
		return 0, c.text[i], c.text[i] == ""
	}
	v = c.vals[i*c.stride+c.off]
	if v != v {
		return v, "", true
	}
	if c.stringValued() {
		return v, c.col.Levels[int(v)], false
	}
	return v, "", false
}

// parquetRowGroup is the number of rows of a row group that WriteParquet
// writes (tests shrink it).
var parquetRowGroup = 1 << 16

// WriteParquet writes the rows of d to w as a Parquet file (zstd
// compression, row groups of 65536 rows): the features in the order of
// the schema, then the target when d has one (Y not nil), then the
// weights in a column named weight when d has them ("weight" when weight
// is ""). Every column is optional, a missing cell a null. A numeric
// column is INT64 when the schema says it is Integral (and every value
// fits), DOUBLE otherwise; categorical and text columns (and labels) are
// dictionary-encoded UTF-8 strings.
func WriteParquet(w io.Writer, d *data.Dataset, weight string) error {
	if weight == "" {
		weight = "weight"
	}
	cols := outColumns(d, weight)
	fields := make([]parquet.Field, len(cols))
	for k := range cols {
		c := &cols[k]
		if c.integer {
			for i := range d.N {
				if v, _, miss := c.value(i); !miss && !(v >= -(1<<63) && v < 1<<63) {
					c.integer = false
					break
				}
			}
		}
		var node parquet.Node
		switch {
		case c.stringValued():
			node = parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
		case c.integer:
			node = parquet.Leaf(parquet.Int64Type)
		default:
			node = parquet.Leaf(parquet.DoubleType)
		}
		fields[k] = namedNode{Node: parquet.Optional(node), name: c.name}
	}
	schema := parquet.NewSchema("gendisc", orderedGroup{fields: fields})
	pw := parquet.NewWriter(w, schema, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(int64(parquetRowGroup)))
	rows := make([]parquet.Row, 0, 1024)
	flush := func() error {
		_, err := pw.WriteRows(rows)
		rows = rows[:0]
		return err
	}
	for i := range d.N {
		row := make(parquet.Row, len(cols))
		for k := range cols {
			c := &cols[k]
			v, s, miss := c.value(i)
			switch {
			case miss:
				row[k] = parquet.NullValue().Level(0, 0, k)
			case c.stringValued():
				row[k] = parquet.ByteArrayValue([]byte(s)).Level(0, 1, k)
			case c.integer:
				row[k] = parquet.Int64Value(int64(v)).Level(0, 1, k)
			default:
				row[k] = parquet.DoubleValue(v).Level(0, 1, k)
			}
		}
		if rows = append(rows, row); len(rows) == cap(rows) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return pw.Close()
}

// orderedGroup is a Parquet group whose fields keep their order
// (parquet.Group sorts them by name).
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

// namedNode is a field of an orderedGroup.
type namedNode struct {
	parquet.Node
	name string
}

func (n namedNode) Name() string { return n.name }

func (n namedNode) Value(reflect.Value) reflect.Value { return reflect.Value{} }

// WriteJSONLines writes the rows of d to w as JSON lines, one object per
// row with the columns of WriteParquet as keys, in that order: numbers as
// JSON numbers in strconv's shortest round-trip form, categorical and
// text cells (and labels) as strings, a missing cell as null.
func WriteJSONLines(w io.Writer, d *data.Dataset, weight string) error {
	if weight == "" {
		weight = "weight"
	}
	cols := outColumns(d, weight)
	keys := make([][]byte, len(cols))
	for k, c := range cols {
		b, err := json.Marshal(c.name)
		if err != nil {
			return err
		}
		keys[k] = append(b, ':')
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	for i := range d.N {
		line = append(line[:0], '{')
		for k := range cols {
			c := &cols[k]
			if k > 0 {
				line = append(line, ',')
			}
			line = append(line, keys[k]...)
			v, s, miss := c.value(i)
			switch {
			case miss:
				line = append(line, "null"...)
			case c.stringValued():
				b, err := json.Marshal(s)
				if err != nil {
					return fmt.Errorf("data: %w", err)
				}
				line = append(line, b...)
			default:
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			}
		}
		line = append(line, '}', '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
