package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio/compress"
	"github.com/klauspost/compress/gzip"
)

// longRecordInputs returns, by name, inputs in each format whose line 3
// (row 2 of a Parquet file) holds a record of about long bytes; the
// records before it are short. Compressed forms of the text formats are
// added for each compression Go can write (bzip2 shares their path after
// decompression).
func longRecordInputs(t *testing.T, long int) map[string][]byte {
	t.Helper()
	text := strings.Repeat("w", long)
	csv := "a,t,y\n1,short,p\n2," + text + ",q\n3,x,p\n"
	ins := map[string][]byte{
		"csv":              []byte(csv),
		"tsv":              []byte(strings.ReplaceAll(csv, ",", "\t")),
		"quoted.csv":       []byte("a,t,y\n1,short,p\n2,\"" + text[:long/2] + "\n" + text[long/2:] + "\",q\n3,x,p\n"),
		"unterminated.csv": []byte("a,t,y\n1,short,p\n2," + text + ",q"),
		"jsonl":            []byte(`{"a":0,"t":"first","y":"q"}` + "\n" + `{"a":1,"t":"short","y":"p"}` + "\n" + `{"a":2,"t":"` + text + `","y":"q"}` + "\n" + `{"a":3,"t":"x","y":"p"}` + "\n"),
	}
	d, err := Read(strings.NewReader(csv), "long.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins["parquet"] = encodings["parquet"](t, d)
	for _, name := range []string{"csv", "tsv", "jsonl"} {
		for c, compress := range compressions {
			ins[name+"."+c] = compress(t, ins[name])
		}
	}
	return ins
}

// TestRecordLimit: a record longer than Limits.MaxRecord is an error
// wrapping ErrTooLong that names the file and the line (the row group and
// row in Parquet), in every format and compression, read whole, with a
// schema and in chunks; a limit one byte larger reads the file.
func TestRecordLimit(t *testing.T) {
	const limit = 1000
	for name, in := range longRecordInputs(t, 3000) {
		want := name + ":3: record too long: more than 1000 B in one record (raise Limits.MaxRecord)"
		if name == "parquet" {
			want = name + `: row group 1, row 2: column "t": record too long: more than 1000 B in one record (raise Limits.MaxRecord)`
		}
		lim := Limits{MaxRecord: limit}
		check := func(how string, err error) {
			t.Helper()
			if !errors.Is(err, ErrTooLong) || err.Error() != want {
				t.Errorf("%s, %s: err = %v, want %s", name, how, err, want)
			}
		}
		_, err := Read(bytes.NewReader(in), name, Options{Limits: lim})
		check("Read", err)
		// Of unknown size, and in small chunks.
		_, err = readInferred(struct{ io.Reader }{bytes.NewReader(in)}, name, Options{Limits: lim}, readConfig{chunk: 256})
		check("Read in small chunks", err)
		s := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Numeric}, {Name: "t", Kind: data.Text}}, Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"p", "q"}}}
		_, err = ReadWithSchema(bytes.NewReader(in), name, s, SchemaOptions{Limits: lim})
		check("ReadWithSchema", err)
		for _, size := range []int{0, 64} {
			err = nil
			for _, e := range ReadChunks(bytes.NewReader(in), name, Options{Limits: lim}, size) {
				err = e
			}
			check(fmt.Sprintf("ReadChunks(%d)", size), err)
		}
		if _, err := Read(bytes.NewReader(in), name, Options{Limits: Limits{MaxRecord: 5000}}); err != nil {
			t.Errorf("%s: with a larger limit: %v", name, err)
		}
	}
}

// TestRecordLimitBoundary: a record of exactly Limits.MaxRecord bytes, its
// line end included, is read; one byte more is refused, at its line.
func TestRecordLimitBoundary(t *testing.T) {
	for _, end := range []string{"\n", "\r\n"} {
		head := "a,t" + end + "1,p" + end
		row := "2," + strings.Repeat("w", 50) + ",q" + end // 55 or 56 bytes
		in := head + row + "3,x,p" + end
		in = strings.ReplaceAll(in, "a,t"+end, "a,t,y"+end)
		in = strings.ReplaceAll(in, "1,p"+end, "1,u,p"+end)
		for _, cfg := range []readConfig{{chunk: 32 << 20}, {chunk: 64}} {
			opt := Options{Limits: Limits{MaxRecord: len(row)}}
			if _, err := readInferred(strings.NewReader(in), "b.csv", opt, cfg); err != nil {
				t.Errorf("%q, chunk %d: a record of the limit: %v", end, cfg.chunk, err)
			}
			opt.MaxRecord--
			_, err := readInferred(strings.NewReader(in), "b.csv", opt, cfg)
			var pe *data.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrTooLong) || pe.Line != 3 {
				t.Errorf("%q, chunk %d: a record one byte over the limit: %v", end, cfg.chunk, err)
			}
		}
	}
	// The header line counts as well.
	_, err := Read(strings.NewReader("abcdef,ghijkl\n1,2\n"), "h.csv", Options{Limits: Limits{MaxRecord: 10}})
	if want := "h.csv:1: record too long: more than 10 B in one record (raise Limits.MaxRecord)"; err == nil || err.Error() != want {
		t.Errorf("long header: err = %v, want %s", err, want)
	}
}

// endless is "x,y\n" (or the start of a JSON line) followed by endless
// 'a's without a line end.
type endless struct {
	head string
	n    int64 // bytes given
}

func (e *endless) Read(p []byte) (int, error) {
	k := copy(p, e.head[min(int(e.n), len(e.head)):])
	for i := k; i < len(p); i++ {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestRecordLimitDefault: an endless line, compressed or not, stops at the
// default limit, 64 MiB, with an error naming line 2, having read little
// more than the limit and allocated a small multiple of it: the line is
// never held whole.
func TestRecordLimitDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB a case")
	}
	for _, c := range []struct {
		name, head string
		line       int
		gzip       bool
	}{{"endless.csv", "x,y\n", 2, false}, {"endless.csv.gz", "x,y\n", 2, true}, {"endless.jsonl", `{"x": "`, 1, false}} {
		src := &endless{head: c.head}
		var in io.Reader = src
		if c.gzip {
			pr, pw := io.Pipe()
			go func() {
				w, _ := gzip.NewWriterLevel(pw, gzip.BestSpeed)
				_, err := io.CopyBuffer(w, io.LimitReader(src, 1<<40), make([]byte, 1<<20))
				pw.CloseWithError(err)
			}()
			defer pr.Close()
			in = pr
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Read(in, c.name, Options{})
		runtime.ReadMemStats(&after)
		want := fmt.Sprintf("%s:%d: record too long: more than 64 MiB in one record (raise Limits.MaxRecord)", c.name, c.line)
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", c.name, err, want)
		}
		// The buffers double up to the limit: 64 KiB + ... + 32 MiB
		// + 64 MiB allocated, about twice the limit.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 5*DefaultMaxRecord/2 {
			t.Errorf("%s: allocated %s for a line cut at %s", c.name, FormatSize(int64(alloc)), FormatSize(DefaultMaxRecord))
		}
		if read := src.n; !c.gzip && read > 2*DefaultMaxRecord {
			t.Errorf("%s: read %s", c.name, FormatSize(read))
		}
	}
}

// TestMemoryBudget: a read whose arrays, strings and buffers would pass
// Limits.MaxMemory stops with an error wrapping ErrMemory that names the
// file and the line reached, in every format; a budget that holds the
// data reads it.
func TestMemoryBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,t,y\n")
	const rows = 20000
	for i := range rows {
		fmt.Fprintf(&b, "%d,%d.5,w%d,c%d\n", i, i%7, i, i%3)
	}
	csv := b.String()
	d, err := Read(strings.NewReader(csv), "m.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ins := map[string][]byte{"csv": []byte(csv), "csv.gz": compressions["gzip"](t, []byte(csv)),
		"jsonl": encodings["jsonl"](t, d), "parquet": encodings["parquet"](t, d)}
	// The arrays alone take 40 bytes a row; the strings about 70.
	const budget = 1 << 20
	for name, in := range ins {
		for _, cfg := range []readConfig{{chunk: 32 << 20}, {chunk: 4096}} {
			_, err := readInferred(struct{ io.Reader }{bytes.NewReader(in)}, name, Options{Limits: Limits{MaxMemory: budget}}, cfg)
			var pe *data.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrMemory) || pe.File != name || pe.Line < 1 || pe.Line > rows+1 ||
				!strings.Contains(err.Error(), "more than the budget of 1 MiB (raise Limits.MaxMemory, or read the file in chunks with ReadChunks)") {
				t.Errorf("%s, chunk %d: err = %v, want the budget passed", name, cfg.chunk, err)
			}
			if _, err := readInferred(struct{ io.Reader }{bytes.NewReader(in)}, name, Options{Limits: Limits{MaxMemory: 64 << 20}}, cfg); err != nil {
				t.Errorf("%s, chunk %d: within the budget: %v", name, cfg.chunk, err)
			}
		}
	}
	// A compressed Parquet file is read into memory: larger than the
	// budget, it is refused before it is read whole.
	gz := compressions["gzip"](t, ins["parquet"])
	_, err = Read(bytes.NewReader(gz), "p.parquet.gz", Options{Limits: Limits{MaxMemory: int64(len(ins["parquet"]) - 1)}})
	if !errors.Is(err, ErrMemory) || !strings.HasPrefix(err.Error(), "p.parquet.gz: memory budget exceeded: a Parquet file") {
		t.Errorf("compressed Parquet: err = %v", err)
	}
	// No budget at all.
	if _, err := Read(strings.NewReader(csv), "m.csv", Options{Limits: Limits{MaxMemory: -1}}); err != nil {
		t.Errorf("no budget: %v", err)
	}
}

// TestJSONArrays: JSON lines of arrays rather than objects are an error
// naming the line that says each line must be an object, whether the
// first line is an array or a later one.
func TestJSONArrays(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\n[1, \"a\"]\n[2, \"b\"]\n", `a.jsonl:2: not a flat JSON object: the line is a JSON array; in JSON lines each line must be a JSON object, {"column": value, ...}`},
		{"{\"x\": 1, \"y\": \"a\"}\n[2, \"b\"]\n", `a.jsonl:2: not a flat JSON object: the line is a JSON array; in JSON lines each line must be a JSON object, {"column": value, ...}`},
	} {
		_, err := Read(strings.NewReader(c.in), "a.jsonl", Options{})
		if !errors.Is(err, ErrJSON) || err.Error() != c.want {
			t.Errorf("%q: err = %v, want %s", c.in, err, c.want)
		}
	}
	// A CSV header in brackets that is not JSON is still CSV.
	if _, err := Read(strings.NewReader("[a],[b]\n1,x\n2,y\n"), "b.csv", Options{}); err != nil {
		t.Errorf("bracketed CSV header: %v", err)
	}
}

// TestReadPlainLines: plain text is a document per line, line ends removed and
// blank lines kept, compressed or not; a line longer than the limit or
// documents past the budget are errors naming the line.
func TestReadPlainLines(t *testing.T) {
	in := "one\r\n\ntwo three\nfour"
	for name, b := range map[string][]byte{"t.txt": []byte(in), "t.txt.gz": compressions["gzip"](t, []byte(in)), "t.txt.zst": compressions["zstd"](t, []byte(in))} {
		d, err := ReadLines(bytes.NewReader(b), name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%q %v", d.Text[0], d.Source.Lines); got != `["one" "" "two three" "four"] [1 2 3 4]` {
			t.Errorf("%s: %s", name, got)
		}
		_, err = ReadLines(bytes.NewReader(b), name, Limits{MaxRecord: 9})
		if want := name + ":3: record too long: more than 9 B in one record (raise Limits.MaxRecord)"; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", name, err, want)
		}
		_, err = ReadLines(bytes.NewReader(b), name, Limits{MaxMemory: 2*linesOverhead + 2})
		if want := name + ":2: memory budget exceeded"; err == nil || !errors.Is(err, ErrMemory) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: err = %v, want %s", name, err, want)
		}
	}
	// A line longer than the reader's buffer.
	long := strings.Repeat("z", 200<<10)
	d, err := ReadLines(strings.NewReader("a\n"+long+"\nb\n"), "l.txt", Limits{})
	if err != nil || d.N != 3 || d.Text[0][1] != long {
		t.Errorf("a long line: %v", err)
	}
	_, err = ReadLines(strings.NewReader("a\n"+long+"\nb\n"), "l.txt", Limits{MaxRecord: 100 << 10})
	if !errors.Is(err, ErrTooLong) || !strings.HasPrefix(err.Error(), "l.txt:2: ") {
		t.Errorf("a long line over the limit: %v", err)
	}
}

// TestReadText: the whole text, or the line too long or the budget
// passed.
func TestReadText(t *testing.T) {
	in := "a,b\n1,2\n" + strings.Repeat("3", 100) + "\n"
	if b, err := ReadText(strings.NewReader(in), "t.csv", Limits{}, 1); err != nil || string(b) != in {
		t.Errorf("ReadText = %q, %v", b, err)
	}
	_, err := ReadText(strings.NewReader(in), "t.csv", Limits{MaxRecord: 100}, 1)
	if want := "t.csv:3: record too long: more than 100 B in one record (raise Limits.MaxRecord)"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	// 109 bytes, held three times.
	if _, err := ReadText(strings.NewReader(in), "t.csv", Limits{MaxMemory: 327}, 3); err != nil {
		t.Errorf("within the budget: %v", err)
	}
	_, err = ReadText(strings.NewReader(in), "t.csv", Limits{MaxMemory: 326}, 3)
	if want := "t.csv:1: memory budget exceeded: reading the data up to here would take 327 B, more than the budget of 326 B (raise Limits.MaxMemory, or read the file in chunks with ReadChunks)"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestSizes: ParseSize reads what FormatSize writes, and the usual forms.
func TestSizes(t *testing.T) {
	for s, want := range map[string]int64{"64MiB": 64 << 20, "1GiB": 1 << 30, "1.5 g": 3 << 29, "100": 100, "2kb": 2048, "8 TiB": 8 << 40, "7B": 7} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v, want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MiB", "-1MiB", "1 PB", "1e3", "99999999999TiB"} {
		if _, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) accepted", s)
		}
	}
	for n, want := range map[int64]string{64 << 20: "64 MiB", 1000: "1000 B", 3 << 29: "1.5 GiB", 12_345_678_901: "11.5 GiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %s, want %s", n, got, want)
		}
	}
}

// FuzzReadLines checks the line reader against strings.Split with a small
// record limit: a line (its \n included) longer than the limit is an
// error naming the first such line, else the documents are the lines.
// Longer: go test -fuzz FuzzReadLines -fuzztime 60s ./data
func FuzzReadLines(f *testing.F) {
	f.Add([]byte("a\nbb\n"), uint8(3))
	f.Add([]byte("a\r\n\n"+strings.Repeat("x", 300)+"\ny"), uint8(40))
	f.Add([]byte(strings.Repeat("long line ", 20)), uint8(255))
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		maxRecord := int(limit) + 1
		d, err := ReadLines(bytes.NewReader(in), "f.txt", Limits{MaxRecord: maxRecord})
		lines := strings.SplitAfter(string(in), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for i, l := range lines {
			if len(l) > maxRecord {
				var pe *data.ParseError
				if !errors.As(err, &pe) || !errors.Is(err, ErrTooLong) || pe.Line != i+1 {
					t.Fatalf("line %d of %d bytes, limit %d: err = %v", i+1, len(l), maxRecord, err)
				}
				return
			}
		}
		if len(in) > 0 && in[0] == 0x1f || len(in) > 3 && (in[0] == 0x28 || in[0] == 0xfd || in[0] == 'B') {
			return // may look compressed
		}
		if err != nil {
			t.Fatal(err)
		}
		if d.N != len(lines) {
			t.Fatalf("%d documents for %d lines", d.N, len(lines))
		}
		for i, l := range lines {
			if want := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"); d.Text[0][i] != want {
				t.Fatalf("line %d: %q, want %q", i+1, d.Text[0][i], want)
			}
		}
	})
}

// FuzzRecordLimit reads fuzzed delimited text and JSON lines with a small
// record limit, whole and in tiny chunks: nothing panics, the two reads
// agree on the error, and when the longest line (its \n included) is
// longer than the limit the read fails. A refused record is at the line
// named: the text from that line on is longer than the limit.
// Longer: go test -fuzz FuzzRecordLimit -fuzztime 60s ./data
func FuzzRecordLimit(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n"+strings.Repeat("3", 80)+",4\n"), uint8(30))
	f.Add([]byte("a,b\n\"x\ny\",2\n3,4\n"), uint8(4))
	f.Add([]byte("{\"a\": 1}\n{\"a\": \""+strings.Repeat("z", 90)+"\"}\n"), uint8(50))
	f.Add([]byte("h\n"+strings.Repeat("q", 500)), uint8(200))
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		maxRecord := int(limit) + 1
		opt := Options{NoTarget: true, Limits: Limits{MaxRecord: maxRecord}}
		// The lines after the blank ones (CRs and LFs) that the header
		// skips, unless the input may be binary.
		text := bytes.TrimLeft(bytes.TrimPrefix(in, bom), "\r\n")
		binary := bytes.HasPrefix(in, []byte("PAR1"))
		if name, _ := compress.Method(in); name != "" {
			binary = true
		}
		longest := 0
		for _, l := range bytes.SplitAfter(text, []byte{'\n'}) {
			longest = max(longest, len(l))
		}
		for _, cfg := range []readConfig{{chunk: 32 << 20}, {chunk: 16, blocks: 2}} {
			_, err := readInferred(struct{ io.Reader }{bytes.NewReader(in)}, "f", opt, cfg)
			var pe *data.ParseError
			if errors.As(err, &pe) && errors.Is(err, ErrTooLong) {
				start := 0
				for range pe.Line - 1 {
					e := bytes.IndexByte(in[start:], '\n')
					if e < 0 {
						t.Fatalf("chunk %d: line %d named, of %d", cfg.chunk, pe.Line, bytes.Count(in, []byte{'\n'})+1)
					}
					start += e + 1
				}
				if len(in)-start <= maxRecord {
					t.Fatalf("chunk %d: line %d refused, %d bytes from it to the end, limit %d", cfg.chunk, pe.Line, len(in)-start, maxRecord)
				}
				continue
			}
			if longest > maxRecord && err == nil && !binary {
				t.Fatalf("chunk %d: a line of %d bytes read with the limit %d", cfg.chunk, longest, maxRecord)
			}
		}
	})
}

// TestDefaultMaxMemory: on a machine whose memory /proc/meminfo gives, the
// default budget is positive and at most half of it.
func TestDefaultMaxMemory(t *testing.T) {
	total := memTotal()
	if total <= 0 {
		t.Skip("no /proc/meminfo")
	}
	if m := DefaultMaxMemory(); m <= 0 || m > total/2 {
		t.Errorf("DefaultMaxMemory() = %d, MemTotal %d", m, total)
	}
}

// TestJSONBudgetCells: the budget counts the cells that the blocks of a
// JSON-lines batch parsed (16 bytes each), not only the text: here the
// text and the arrays fit in 2 MiB, the cells do not.
func TestJSONBudgetCells(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, `{"a":%d,"b":2,"c":3,"d":4,"y":"p"}`+"\n", i%10)
	}
	in := b.String()
	_, err := Read(strings.NewReader(in), "c.jsonl", Options{Limits: Limits{MaxMemory: 2 << 20}})
	if !errors.Is(err, ErrMemory) {
		t.Errorf("%d bytes of text: err = %v, want the budget passed", len(in), err)
	}
	if _, err := Read(strings.NewReader(in), "c.jsonl", Options{Limits: Limits{MaxMemory: 8 << 20}}); err != nil {
		t.Error(err)
	}
}
