package data

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// reportCPU returns a function that reports the input bytes parsed per
// second of CPU time (user and system, all threads): on a shared machine
// it varies less than MB/s of wall time.
func reportCPU(b *testing.B, bytes int) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(bytes)*float64(b.N)/(cpu()-start).Seconds()/1e6, "MB/cpu-s")
	}
}

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
		k := block{b: c, comma: ',', d: 50, x: x, y: y, lines: lines, plans: append([]fieldPlan(nil), plans...), stats: make([]colStats, 51)}
		k.parse()
		if k.err != nil || k.rows != nl {
			b.Fatal(k.err, k.rows)
		}
	}
}
