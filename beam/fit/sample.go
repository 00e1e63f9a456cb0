package fit

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// SampleFn is the CombineFn of the sample of an initialisation: the Size
// rows of the files (features and weight) with the smallest keys
//
//	key_i = h(Seed, x_i, w_i)
//
// h a 64-bit hash of the seed and the bits of the row's cells and weight:
// a sample that depends on the seed and the rows' values, not on their
// order or on the files they are in (rows with the same values have the
// same key and are drawn together, the ties broken by the values). Its
// input is a file, read whole as PassFn reads it; its accumulator and
// output the encoding of a sample.
type SampleFn struct {
	Size   int
	Seed   uint64
	Schema []byte
	Weight string
	Comma  rune
	Extend bool
}

func (fn *SampleFn) CreateAccumulator() []byte { return nil }

func (fn *SampleFn) AddInput(acc []byte, f fileio.ReadableFile) ([]byte, error) {
	var schema data.Schema
	if err := json.Unmarshal(fn.Schema, &schema); err != nil {
		return nil, err
	}
	d, err := readWithSchema(f, &schema, dataio.SchemaOptions{Weight: fn.Weight, Comma: fn.Comma, Extend: fn.Extend, RequireTarget: true})
	if err != nil {
		return nil, err
	}
	s, err := decodeSample(acc)
	if err != nil {
		return nil, err
	}
	if s.d < 0 {
		s.d = d.D()
	}
	for i := range d.N {
		w := 1.0
		if d.Weight != nil {
			w = d.Weight[i]
		}
		s.rows = append(s.rows, sampleRow{key: rowKey(fn.Seed, d.Row(i), w), w: w, x: d.Row(i)})
	}
	s.keep(fn.Size)
	return s.encode(), nil
}

func (fn *SampleFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	x, err := decodeSample(a)
	if err != nil {
		return nil, err
	}
	y, err := decodeSample(b)
	if err != nil {
		return nil, err
	}
	if x.d < 0 {
		return b, nil
	}
	if y.d >= 0 && y.d != x.d {
		return nil, fmt.Errorf("fit: samples of rows of %d and %d features", x.d, y.d)
	}
	x.rows = append(x.rows, y.rows...)
	x.keep(fn.Size)
	return x.encode(), nil
}

func (fn *SampleFn) ExtractOutput(acc []byte) ([]byte, error) { return acc, nil }

// sample is a sample of rows of d features (-1: none seen yet).
type sample struct {
	d    int
	rows []sampleRow
}

type sampleRow struct {
	key uint64
	w   float64
	x   []float64
}

// rowKey returns the key of a row of cells x and weight w: FNV-1a over
// the seed and the bits of the values, finished by splitmix64's mixer.
func rowKey(seed uint64, x []float64, w float64) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	add := func(v uint64) {
		for range 8 {
			h = (h ^ (v & 0xff)) * prime
			v >>= 8
		}
	}
	add(seed)
	for _, v := range x {
		add(math.Float64bits(v))
	}
	add(math.Float64bits(w))
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// keep keeps the n rows of smallest keys, ties broken by the bits of the
// cells, then of the weight: a total order, so that the sample does not
// depend on the order in which rows and samples come.
func (s *sample) keep(n int) {
	slices.SortFunc(s.rows, func(a, b sampleRow) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		for j := range a.x {
			if c := cmp.Compare(math.Float64bits(a.x[j]), math.Float64bits(b.x[j])); c != 0 {
				return c
			}
		}
		return cmp.Compare(math.Float64bits(a.w), math.Float64bits(b.w))
	})
	if len(s.rows) > n {
		s.rows = s.rows[:n]
	}
}

// encode returns the sample as little-endian uint64s: the number of
// features, then per row the key, the bits of the weight and of the cells.
func (s *sample) encode() []byte {
	b := make([]byte, 0, 8+len(s.rows)*8*(2+s.d))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.d))
	for _, r := range s.rows {
		b = binary.LittleEndian.AppendUint64(b, r.key)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.w))
		for _, v := range r.x {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// decodeSample returns the sample b encodes, an empty one for nil.
func decodeSample(b []byte) (*sample, error) {
	if len(b) == 0 {
		return &sample{d: -1}, nil
	}
	if len(b) < 8 {
		return nil, fmt.Errorf("fit: not the encoding of a sample")
	}
	d := binary.LittleEndian.Uint64(b)
	b = b[8:]
	if d > math.MaxInt32 || len(b)%(8*(2+int(d))) != 0 {
		return nil, fmt.Errorf("fit: not the encoding of a sample")
	}
	u := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	n := len(b) / (8 * (2 + int(d)))
	s := &sample{d: int(d), rows: make([]sampleRow, n)}
	x := make([]float64, n*int(d))
	for i := range n {
		o := i * (2 + int(d))
		r := &s.rows[i]
		r.key, r.w, r.x = u(o), math.Float64frombits(u(o+1)), x[i*int(d):(i+1)*int(d)]
		for j := range r.x {
			r.x[j] = math.Float64frombits(u(o + 2 + j))
		}
	}
	return s, nil
}

// dataset returns the rows of the sample with the features of schema,
// their weights when weighted is set, named source.
func (s *sample) dataset(schema *data.Schema, weighted bool, source string) *data.Dataset {
	d := &data.Dataset{Schema: schema, N: len(s.rows), Source: data.Named(source)}
	for _, r := range s.rows {
		d.X = append(d.X, r.x...)
		if weighted {
			d.Weight = append(d.Weight, r.w)
		}
	}
	return d
}
