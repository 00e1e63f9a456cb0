package datasets

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestContents decompresses every data set and checks it against its
// catalog entry: the sha256 of the text, the header, the rows, the class
// counts and the number of empty cells.
func TestContents(t *testing.T) {
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			r, err := Open(d.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			h := sha256.New()
			cr := csv.NewReader(io.TeeReader(r, h))
			cr.ReuseRecord = true
			header, err := cr.Read()
			if err != nil {
				t.Fatal(err)
			}
			if len(header) != d.Features+1 || header[d.Features] != "class" {
				t.Errorf("header has %d columns, last %q; want %d, last \"class\"", len(header), header[len(header)-1], d.Features+1)
			}
			rows, missing := 0, 0
			classes := map[string]int{}
			for {
				rec, err := cr.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				rows++
				classes[rec[len(rec)-1]]++
				for _, cell := range rec {
					if cell == "" {
						missing++
					}
				}
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != d.SHA256 {
				t.Errorf("sha256 %s, want %s", got, d.SHA256)
			}
			if rows != d.Rows {
				t.Errorf("%d rows, want %d", rows, d.Rows)
			}
			if missing != d.Missing {
				t.Errorf("%d empty cells, want %d", missing, d.Missing)
			}
			if len(classes) != len(d.Classes) {
				t.Errorf("%d classes, want %d", len(classes), len(d.Classes))
			}
			for _, c := range d.Classes {
				if classes[c.Name] != c.Count {
					t.Errorf("class %q: %d rows, want %d", c.Name, classes[c.Name], c.Count)
				}
			}
			if err := r.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestCatalogMatchesFiles checks that every embedded file has a catalog
// entry and the other way round, and that the catalog is complete.
func TestCatalogMatchesFiles(t *testing.T) {
	paths, err := fs.Glob(files, "data/*")
	if err != nil {
		t.Fatal(err)
	}
	var embedded []string
	for _, p := range paths {
		embedded = append(embedded, strings.TrimSuffix(strings.TrimPrefix(p, "data/"), ".csv.gz"))
	}
	names := Names()
	if !slices.Equal(embedded, names) {
		t.Errorf("embedded files %v, catalog %v", embedded, names)
	}
	if !slices.IsSorted(names) || len(names) != 12 {
		t.Errorf("Names() = %v, want 12 sorted names", names)
	}
	for _, d := range All() {
		if d.License == "" || d.Citation == "" || d.Source == "" || d.Rows == 0 || d.Features == 0 || d.FeatureTypes == "" || len(d.SHA256) != 64 {
			t.Errorf("incomplete catalog entry %+v", d)
		}
	}
}

func TestNames(t *testing.T) {
	for _, name := range []string{"iris", "iris.csv"} {
		d, ok := Info(name)
		if !ok || d.Name != "iris" || d.Rows != 150 {
			t.Errorf("Info(%q) = %+v, %v", name, d, ok)
		}
		r, err := Open(name)
		if err != nil {
			t.Fatalf("Open(%q): %v", name, err)
		}
		r.Close()
	}
	for _, name := range []string{"", "iri", "iris.csv.gz", "Iris", "zzz"} {
		if _, ok := Info(name); ok {
			t.Errorf("Info(%q) found a data set", name)
		}
		_, err := Open(name)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) error %v does not match fs.ErrNotExist", name, err)
		}
		if err != nil && !strings.Contains(err.Error(), "adult, breast_cancer_wdbc") {
			t.Errorf("Open(%q) error %q does not list the data sets", name, err)
		}
	}
}

// TestCopies checks that callers cannot change the catalog through the
// slices they are given.
func TestCopies(t *testing.T) {
	All()[0].Classes[0].Count = -1
	d, _ := Info(Names()[0])
	d.Classes[0].Name = "changed"
	if d := All()[0]; d.Classes[0].Count < 0 || d.Classes[0].Name == "changed" {
		t.Errorf("catalog changed through a returned slice: %+v", d.Classes)
	}
}
