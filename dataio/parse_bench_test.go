package dataio

import (
	"os"
	"testing"
)

// benchChunk returns the first 8 MB of rows of the benchmark file.
func benchChunk(b *testing.B) []byte {
	f, err := os.Open(benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 8<<20)
	n, _ := f.Read(buf)
	_, last := scanRows(buf[:n], ',', nil)
	head, _ := headerEnd(buf)
	return buf[head:last]
}

// BenchmarkParseBlock parses 8 MB of numeric rows on one goroutine: the
// per-core speed of the row parser.
func BenchmarkParseBlock(b *testing.B) {
	c := benchChunk(b)
	nl := 0
	for _, ch := range c {
		if ch == '\n' {
			nl++
		}
	}
	plans := make([]fieldPlan, 51)
	for f := range plans {
		plans[f] = fieldPlan{name: "x", mode: cellInfer, j: f}
	}
	plans[50] = fieldPlan{name: "class", mode: cellString, dst: destY}
	x, y, lines := make([]float64, (nl+1)*50), make([]float64, nl+1), make([]int, nl+1)
	b.SetBytes(int64(len(c)))
	defer reportCPU(b, len(c))()
	for b.Loop() {
		k := block{b: c, comma: ',', d: 50, x: x, y: y, lines: lines, plans: append([]fieldPlan(nil), plans...), stats: make([]colStats, 51), maxRecord: DefaultMaxRecord}
		k.parse()
		if k.err != nil || k.rows != nl {
			b.Fatal(k.err, k.rows)
		}
	}
}
