package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files returns the names of the files in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestCommitAbort checks that a file appears whole on Commit, with the
// permissions of the file it replaces, and that Abort leaves nothing.
func TestCommitAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	write := func(text string, commit bool) {
		t.Helper()
		f, err := Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Abort()
		if _, err := f.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(f.Name()) != dir || !strings.HasPrefix(filepath.Base(f.Name()), ".out.csv.tmp") {
			t.Errorf("temporary file %s", f.Name())
		}
		if commit {
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("a\n", true)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v %v", fi.Mode(), err)
	}
	os.Chmod(path, 0o600)
	write("b\n", true)
	write("c\n", false)
	if b, _ := os.ReadFile(path); string(b) != "b\n" {
		t.Errorf("content %q, want the committed b", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's permissions: %v, want 0600", fi.Mode())
	}
	if names := files(t, dir); len(names) != 1 {
		t.Errorf("files left: %v", names)
	}
	if len(open.names) != 0 {
		t.Errorf("files still registered: %v", open.names)
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "dir")); err == nil {
		t.Error("Create in a missing directory")
	}
}

// TestDir writes a directory twice to one destination: the second
// replaces the first whole, no temporary directory is left, and an
// aborted one leaves the committed one as it was.
func TestDir(t *testing.T) {
	parent := t.TempDir()
	dest := filepath.Join(parent, "report")
	for _, content := range []string{"first", "second"} {
		d, err := MkdirTemp(dest)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Name(), content+".txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
		d.Abort() // after Commit: nothing
	}
	d, err := MkdirTemp(dest)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Name(), "third.txt"), nil, 0o644)
	d.Abort()
	names, _ := filepath.Glob(filepath.Join(parent, "*"))
	hidden, _ := filepath.Glob(filepath.Join(parent, ".*"))
	inside, _ := os.ReadDir(dest)
	if len(names) != 1 || len(hidden) != 0 || len(inside) != 1 || inside[0].Name() != "second.txt" {
		t.Errorf("left %v and %v, the report holding %v", names, hidden, inside)
	}
	if len(open.names) != 0 {
		t.Errorf("still registered: %v", open.names)
	}
}

// TestWriteFile: WriteFile replaces a file whole, keeping its permissions,
// and leaves nothing behind when it cannot write.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if err != nil || string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: %q (%v), mode %v; want \"new\", 0600", path, b, err, fi.Mode())
	}
	if names := files(t, dir); len(names) != 1 {
		t.Errorf("files left: %v", names)
	}
	if err := WriteFile(filepath.Join(dir, "no", "m.json"), []byte("x")); err == nil {
		t.Error("WriteFile into a missing directory: no error")
	}
	if names := files(t, dir); len(names) != 1 {
		t.Errorf("files left after a failed write: %v", names)
	}
}
