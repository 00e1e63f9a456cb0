package dataio

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gendisc/gendisc/data"
)

// The benchmark file: benchRows rows of 50 numeric features (30 like
// 0.123456789, 10 like -12.5, 10 small integers) and a 0/1 class, about
// 460 MB. It is written once per test binary run, in a temporary
// directory that TestMain removes.
const benchRows = 1_000_000

var bench struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func benchFile(b *testing.B) string {
	bench.once.Do(func() {
		bench.dir, bench.err = os.MkdirTemp("", "gendisc-data-bench")
		if bench.err != nil {
			return
		}
		bench.path = filepath.Join(bench.dir, "numeric.csv")
		bench.err = writeBenchFile(bench.path, benchRows)
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.path
}

func writeBenchFile(path string, rows int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	var line []byte
	for j := range 50 {
		line = append(line, 'x')
		line = strconv.AppendInt(line, int64(j), 10)
		line = append(line, ',')
	}
	line = append(line, "class\n"...)
	w.Write(line)
	for range rows {
		line = line[:0]
		for j := range 50 {
			switch {
			case j < 30:
				line = strconv.AppendFloat(line, float64(rng.IntN(2e9)-1e9)/1e9, 'f', 9, 64)
			case j < 40:
				line = strconv.AppendFloat(line, float64(rng.IntN(2000)-1000)/10, 'f', -1, 64)
			default:
				line = strconv.AppendInt(line, int64(rng.IntN(20)), 10)
			}
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(rng.IntN(2)), 10)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// benchInput returns the benchmark file, its size set as the bytes of an
// operation, and the function that reports MB/cpu-s at the end.
func benchInput(b *testing.B) (path string, done func()) {
	path = benchFile(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	return path, reportCPU(b, int(fi.Size()))
}

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

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
	os.Exit(code)
}

// BenchmarkReadFile reads the 1,000,000 × 50 numeric file; MB/s is the
// input read per second of wall time, MB/cpu-s per second of CPU time
// (all cores): the wall-time rate of an idle machine is about
// MB/cpu-s × cores.
func BenchmarkReadFile(b *testing.B) {
	path, done := benchInput(b)
	defer done()
	for b.Loop() {
		d, err := ReadFile(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if d.N != benchRows || d.D() != 50 {
			b.Fatalf("read %d × %d", d.N, d.D())
		}
	}
}

// BenchmarkReadMixed reads adult.csv (numeric and categorical columns)
// from memory.
func BenchmarkReadMixed(b *testing.B) {
	raw := datasetBytes(b, "adult")
	b.SetBytes(int64(len(raw)))
	defer reportCPU(b, len(raw))()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(raw), "adult.csv", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadChunks reads the 1,000,000 × 50 numeric file in chunks of
// 8 MB (as fit --stream does), to compare with BenchmarkReadFile.
func BenchmarkReadChunks(b *testing.B) {
	path, done := benchInput(b)
	defer done()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for d, err := range ReadChunks(f, path, Options{}, 8<<20) {
			if err != nil {
				b.Fatal(err)
			}
			n += d.N
		}
		f.Close()
		if n != benchRows {
			b.Fatalf("read %d rows", n)
		}
	}
}

// BenchmarkReadParquet reads the 1,000,000 × 50 numeric file written as
// Parquet (WriteParquet: DOUBLE and INT64 columns, zstd, row groups of
// 65,536 rows); MB/s and MB/cpu-s count the CSV file's bytes, so that the
// figures compare with BenchmarkReadFile's.
func BenchmarkReadParquet(b *testing.B) { benchReadAs(b, ".parquet", WriteParquet) }

// BenchmarkReadJSONLines reads the 1,000,000 × 50 numeric file written as
// JSON lines (WriteJSONLines: one object of 51 keys per line, about 770
// MB), counted as BenchmarkReadParquet.
func BenchmarkReadJSONLines(b *testing.B) { benchReadAs(b, ".jsonl", WriteJSONLines) }

// benchReadAs times ReadFile of the benchmark's CSV file written by write
// (once, untimed, to the CSV's path with ext appended), its MB/s and
// MB/cpu-s in the CSV file's bytes.
func benchReadAs(b *testing.B, ext string, write func(io.Writer, *data.Dataset, string) error) {
	path, done := benchInput(b)
	out := path + ext
	if _, err := os.Stat(out); err != nil {
		d, err := ReadFile(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		if err := write(w, d, ""); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		b.ResetTimer()
		done = reportCPU(b, int(fileSize(b, path)))
	}
	defer done()
	for b.Loop() {
		d, err := ReadFile(out, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if d.N != benchRows || d.D() != 50 {
			b.Fatalf("read %d × %d", d.N, d.D())
		}
	}
}

func fileSize(b *testing.B, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}
