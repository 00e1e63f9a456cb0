package cli

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeGzip writes b gzip-compressed to path.
func writeGzip(t *testing.T, path string, b []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecordLimitFlag: a line longer than --max-record is one line naming
// the file and the line, with the flag that raises the limit, for fit
// (with and without --stream), predict, score and a plain text corpus;
// no output is written, and a larger limit reads the file.
func TestRecordLimitFlag(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--model", "nb", "--data", "iris", "--out", model)
	header := "sepallength,sepalwidth,petallength,petalwidth,class\n"
	csv := header + "5.1,3.5,1.4,0.2,Iris-setosa\n6.1,2.8,4.7,1.2," + strings.Repeat("v", 3000) + "\n7.7,3.0,6.1,2.3,Iris-virginica\n"
	long := filepath.Join(dir, "long.csv.gz")
	writeGzip(t, long, []byte(csv))
	text := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(text, []byte("to be\n"+strings.Repeat("or not ", 500)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	hint := ": record too long: more than 1 KiB in one record (raise the limit with --max-record SIZE, such as --max-record 1GiB)\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--model", "nb", "--data", long, "--out", out}, long + ":3" + hint},
		{[]string{"fit", "--model", "nb", "--stream", "--data", long, "--out", out}, long + ":3" + hint},
		{[]string{"predict", "--model", model, "--data", long, "--out", filepath.Join(dir, "p.csv")}, long + ":3" + hint},
		{[]string{"score", "--model", model, "--data", long}, long + ":3" + hint},
		{[]string{"fit", "--model", "ngram", "--data", text, "--out", out}, text + ":2" + hint},
	} {
		r := runCLI(t, "", append(c.args, "--max-record", "1KiB")...)
		if r.code != 1 || r.stderr != "gendisc: "+c.want {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.args[0:3], r.code, r.stderr, "gendisc: "+c.want)
		}
		if r := runCLI(t, "", append(c.args, "--max-record", "4KiB")...); r.code != 0 {
			t.Errorf("%s --max-record 4KiB: exit %d, %s", c.args[0:3], r.code, r.stderr)
		}
		os.Remove(out)
		os.Remove(filepath.Join(dir, "p.csv"))
	}
	for _, bad := range []string{"0", "lots", "-1KiB", "5GiB"} {
		if r := runCLI(t, "", "fit", "--data", "iris", "--out", out, "--max-record", bad); r.code != 2 {
			t.Errorf("--max-record %s: exit %d, want 2 (misuse)", bad, r.code)
		}
	}
}

// TestMemoryBudgetFlag: data that would pass --max-memory stops with one
// line naming the file and the line reached, and the remedy of the
// command: --stream for fit without it, a larger budget for fit --stream,
// smaller files for a command that holds all its data; no output is
// written.
func TestMemoryBudgetFlag(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--model", "nb", "--data", "iris", "--out", model)
	var b strings.Builder
	b.WriteString("sepallength,sepalwidth,petallength,petalwidth,class\n")
	for range 30000 {
		b.WriteString("5.1,3.5,1.4,0.2,Iris-setosa\n6.1,2.8,4.7,1.2,Iris-versicolor\n")
	}
	data := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	for _, c := range []struct {
		args []string
		hint string
	}{
		{[]string{"fit", "--model", "nb", "--data", data, "--out", out, "--max-memory", "1MiB"},
			"(fit --stream reads the data in chunks, in memory that does not grow with the file; or raise the budget with --max-memory SIZE)"},
		{[]string{"predict", "--model", model, "--data", data, "--out", filepath.Join(dir, "p.csv"), "--max-memory", "1MiB"},
			"(this command holds all the data in memory: give it smaller files, or raise the budget with --max-memory SIZE)"},
		// The chunk buffers alone pass a budget of 1 MiB.
		{[]string{"fit", "--model", "nb", "--stream", "--data", data, "--out", out, "--max-memory", "1MiB"},
			"(raise the budget with --max-memory SIZE)"},
	} {
		r := runCLI(t, "", c.args...)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "gendisc: "+data+":") || !strings.Contains(r.stderr, ": memory budget exceeded: ") ||
			!strings.HasSuffix(r.stderr, "more than the budget of 1 MiB "+c.hint+"\n") {
			t.Errorf("%s: exit %d, stderr %q, want the budget passed and %s", c.args[:3], r.code, r.stderr, c.hint)
		}
	}
	// A language model reads plain text whole: --stream is no remedy.
	r := runCLI(t, "", "fit", "--model", "ngram", "--data", "tinyshakespeare", "--out", out, "--max-memory", "100KiB")
	if want := "more than the budget of 100 KiB (this command holds all the data in memory: give it smaller files, or raise the budget with --max-memory SIZE)\n"; r.code != 1 ||
		!strings.HasPrefix(r.stderr, "gendisc: tinyshakespeare:") || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("ngram: exit %d, stderr %q, want ...%s", r.code, r.stderr, want)
	}
	assertFiles(t, dir, "m.json", "rows.csv")
	mustRun(t, "fit", "--model", "nb", "--data", data, "--out", out, "--max-memory", "64MiB")
	mustRun(t, "fit", "--model", "nb", "--data", data, "--out", out, "--max-memory", "none")
	for _, bad := range []string{"0", "much", "-5MiB"} {
		if r := runCLI(t, "", "fit", "--data", "iris", "--out", out, "--max-memory", bad); r.code != 2 {
			t.Errorf("--max-memory %s: exit %d, want 2 (misuse)", bad, r.code)
		}
	}
}

// TestJSONArrayLines: JSON lines of arrays are refused at their first
// line, saying that each line must be an object (not "fewer than two
// classes").
func TestJSONArrayLines(t *testing.T) {
	r := runCLI(t, "[5.1, 3.5, \"a\"]\n[6.1, 2.8, \"b\"]\n", "fit", "--data", "-", "--out", filepath.Join(t.TempDir(), "m.json"))
	want := "gendisc: <stdin>:1: not a flat JSON object: the line is a JSON array; in JSON lines each line must be a JSON object, {\"column\": value, ...}\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
}
