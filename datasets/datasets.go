package datasets

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
)

//go:generate go run ./internal/gen -src ../../shared/datasets

// UCICitation is the citation of the UCI Machine Learning Repository, owed
// together with a data set's own Citation (and under its License) by whoever
// redistributes it.
const UCICitation = "Dua, D. and Graff, C., UCI Machine Learning Repository, University of California, Irvine"

// Dataset describes one bundled data set.
type Dataset struct {
	Name     string `json:"name"`     // file name without ".csv", such as "iris"
	Rows     int    `json:"rows"`     // data rows, the header not counted
	Features int    `json:"features"` // columns besides the last one, "class"
	// Classes are the class names with their row counts, most frequent
	// first, as the data set's README lists them.
	Classes      []ClassCount `json:"classes"`
	FeatureTypes string       `json:"feature_types"` // such as "6 integer, 2 continuous"
	Missing      int          `json:"missing"`       // empty cells
	// License is what is known of the licence of this file and of the
	// copy it was taken from, such as "Package: BSD-3-Clause
	// (debian/copyright)."
	License string `json:"license"`
	// Citation is what to cite for this file, together with UCICitation.
	Citation string `json:"citation"`
	Source   string `json:"source"` // where the file was taken from
	Notes    string `json:"notes"`  // remarks on how the file differs from UCI's
	SHA256   string `json:"sha256"` // hex sha256 of the uncompressed CSV
}

// ClassCount is a class name and its number of rows.
type ClassCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

//go:embed data/*.csv.gz
var files embed.FS

// Names returns the names of the bundled data sets, sorted.
func Names() []string {
	names := make([]string, len(catalog))
	for i, d := range catalog {
		names[i] = d.Name
	}
	return names
}

// All returns the descriptions of all bundled data sets, sorted by name.
func All() []Dataset {
	all := make([]Dataset, len(catalog))
	for i, d := range catalog {
		all[i] = d.clone()
	}
	return all
}

// Info returns the description of the data set called name ("iris" or
// "iris.csv") and whether there is one.
func Info(name string) (Dataset, bool) {
	i, ok := find(name)
	if !ok {
		return Dataset{}, false
	}
	return catalog[i].clone(), true
}

// Open returns the CSV text of the data set called name ("iris" or
// "iris.csv"), decompressed as it is read. Reading checks the gzip CRC at
// the end. For an unknown name the error lists the bundled data sets and
// matches fs.ErrNotExist under errors.Is.
func Open(name string) (io.ReadCloser, error) {
	i, ok := find(name)
	if !ok {
		return nil, unknownError(name)
	}
	f, err := files.Open("data/" + catalog[i].Name + ".csv.gz")
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	return zr, nil
}

// find returns the catalog index of the data set called name, with or
// without the ".csv" suffix.
func find(name string) (int, bool) {
	name = strings.TrimSuffix(name, ".csv")
	return slices.BinarySearchFunc(catalog, name, func(d Dataset, name string) int {
		return strings.Compare(d.Name, name)
	})
}

func (d Dataset) clone() Dataset {
	d.Classes = slices.Clone(d.Classes)
	return d
}

// unknownError is the error of Open for a name that is not bundled.
type unknownError string

func (e unknownError) Error() string {
	return fmt.Sprintf("datasets: no bundled data set %q (bundled: %s)", string(e), strings.Join(Names(), ", "))
}

// Is makes errors.Is(err, fs.ErrNotExist) true, as for a missing file.
func (e unknownError) Is(target error) bool { return target == fs.ErrNotExist }
