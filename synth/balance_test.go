package synth

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/logistic"
)

// TestBalance: the original rows come first and unchanged, every class
// ends with ratio × the largest class's rows, and integral columns stay
// integral.
func TestBalance(t *testing.T) {
	pima := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	m, err := kindCases[2].fit(pima)
	if err != nil {
		t.Fatal(err)
	}
	for _, ratio := range []float64{1, 0.8, 1.5} {
		b, err := Balance(pima, m.(gendisc.ClassSampler), ratio, nil, seeded(3))
		if err != nil {
			t.Fatal(err)
		}
		count := map[float64]int{}
		for _, y := range b.Y {
			count[y]++
		}
		want := int(math.Ceil(ratio * 500))
		for k, n := range count {
			if n != max(want, []int{500, 268}[int(k)]) {
				t.Errorf("ratio %g: class %g has %d rows, want %d", ratio, k, n, want)
			}
		}
		for i := range pima.X {
			if b.X[i] != pima.X[i] {
				t.Fatalf("ratio %g: original cell %d changed", ratio, i)
			}
		}
		for i := pima.N; i < b.N; i++ {
			for j, c := range b.Schema.Features {
				if v := b.Row(i)[j]; c.Integral && v != math.Round(v) {
					t.Fatalf("row %d: %s = %g in an integral column", i, c.Name, v)
				}
			}
		}
	}
	if _, err := Balance(pima, m.(gendisc.ClassSampler), 0, nil, seeded(3)); err == nil {
		t.Error("ratio 0: no error")
	}
}

// TestBalanceRecall trains logistic regression on pima (500 negative, 268
// positive) and on pima with three positive rows in four left out (500,
// 67), as they are and balanced by each generative kind, and measures the
// recall and precision of the positive class on held-out rows (every
// third row of each class). The table in README.md is this test's log.
func TestBalanceRecall(t *testing.T) {
	pima := bundled.Load(t, "pima_indians_diabetes", dataio.Options{})
	var table strings.Builder
	table.WriteString("| training data | rows (neg/pos) | logistic on | recall (pos) | precision (pos) |\n|---|---|---|---|---|\n")
	for _, keep := range []int{1, 4} {
		var train, test []int
		seen := map[float64]int{}
		for i, y := range pima.Y {
			seen[y]++
			switch {
			case seen[y]%3 == 0:
				test = append(test, i)
			case y == 0 || seen[y]%keep == 0:
				train = append(train, i)
			}
		}
		tr, te := pima.Subset(train), pima.Subset(test)
		pos := 0
		for _, y := range tr.Y {
			pos += int(y)
		}
		what := "pima"
		if keep > 1 {
			what = fmt.Sprintf("pima, 1 in %d positives", keep)
		}
		r0, p0 := recall(t, tr, te)
		fmt.Fprintf(&table, "| %s | %d/%d | original | %.3f | %.3f |\n", what, tr.N-pos, pos, r0, p0)
		for _, kc := range kindCases {
			if kc.name == "gmm" {
				continue
			}
			m, err := kc.fit(tr)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Balance(tr, m.(gendisc.ClassSampler), 1, nil, seeded(8))
			if err != nil {
				t.Fatal(err)
			}
			r, p := recall(t, b, te)
			fmt.Fprintf(&table, "| %s | %d/%d | balanced by %s | %.3f | %.3f |\n", what, tr.N-pos, pos, kc.name, r, p)
			if !(r > r0) {
				t.Errorf("%s, balanced by %s: recall %g, %g without balancing", what, kc.name, r, r0)
			}
		}
	}
	t.Log("logistic regression (λ = 1) on held-out pima rows:\n" + table.String())
}

// recall fits logistic regression on train and returns the recall and
// precision of class 1 on test.
func recall(t *testing.T, train, test *data.Dataset) (float64, float64) {
	t.Helper()
	m, err := logistic.Config{}.Fit(train)
	if err != nil {
		t.Fatal(err)
	}
	p := m.LogProba(nil, test)
	var tp, fn, fp float64
	for i, y := range test.Y {
		pred := argmax(p[2*i : 2*i+2])
		switch {
		case y == 1 && pred == 1:
			tp++
		case y == 1:
			fn++
		case pred == 1:
			fp++
		}
	}
	return tp / (tp + fn), tp / (tp + fp)
}
