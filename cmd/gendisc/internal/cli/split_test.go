package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSplit: the two files hold every row once, in order, with each
// class's share of test rows round(0.2 × its rows), and the same seed gives
// the same files.
func TestSplit(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	mustRun(t, "split", "--data", "iris", "--test", "0.2", "--seed", "3", "--train", train, "--test-out", test)
	a, _ := os.ReadFile(train)
	b, _ := os.ReadFile(test)
	header, rows := bundledRows(t, "iris")
	la := strings.Split(strings.TrimSpace(string(a)), "\n")
	lb := strings.Split(strings.TrimSpace(string(b)), "\n")
	if la[0] != header || lb[0] != header {
		t.Fatalf("headers %q, %q", la[0], lb[0])
	}
	if len(lb)-1 != 30 || len(la)-1 != 120 {
		t.Fatalf("%d training and %d test rows", len(la)-1, len(lb)-1)
	}
	for _, c := range []string{"Iris-setosa", "Iris-versicolor", "Iris-virginica"} {
		n := 0
		for _, r := range lb[1:] {
			if strings.HasSuffix(r, ","+c) {
				n++
			}
		}
		if n != 10 {
			t.Errorf("%s: %d test rows, want 10", c, n)
		}
	}
	merged := slices.Concat(la[1:], lb[1:])
	slices.Sort(merged)
	want := slices.Clone(rows)
	slices.Sort(want)
	if !slices.Equal(merged, want) {
		t.Errorf("the files do not hold the rows of iris once each")
	}
	mustRun(t, "split", "--data", "iris", "--test", "0.2", "--seed", "3", "--train", train+"2.csv", "--test-out", test+"2.csv")
	if b2, _ := os.ReadFile(test + "2.csv"); string(b2) != string(b) {
		t.Errorf("the same seed gave other test rows")
	}
	r := runCLI(t, "", "split", "--data", "iris", "--test", "1.5", "--train", train, "--test-out", test)
	if r.code != 2 {
		t.Errorf("--test 1.5: exit %d", r.code)
	}
}
