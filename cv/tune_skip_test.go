package cv

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestTuneSkipFailed: QDA without shrinkage on 40 rows of sonar's 60
// features has singular covariances, so the search fails, or with
// SkipFailed leaves that setting out (its error recorded, in the JSON
// too) and chooses among the others.
func TestTuneSkipFailed(t *testing.T) {
	sonar := bundled.Load(t, "sonar", dataio.Options{})
	rows := make([]int, 40)
	for i := range rows {
		rows[i] = i * sonar.N / len(rows)
	}
	d := sonar.Subset(rows)
	folds, err := Stratified(d.Y, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ParseParam("shrinkage=0,0.5")
	s := &Search{Kind: lookupKind(t, gda.KindQDA), Params: []Param{p}, Metric: classMetrics[0], Workers: 1}
	if _, err := s.Run(d, folds); err == nil || !strings.Contains(err.Error(), "setting shrinkage=0") {
		t.Fatalf("without SkipFailed: error %v, want one naming shrinkage=0", err)
	}
	s.SkipFailed = true
	res, err := s.Run(d, folds)
	if err != nil {
		t.Fatal(err)
	}
	if res.Trials[0].Err == nil || res.Trials[0].Result != nil || res.Trials[1].Err != nil || res.Chosen != 1 {
		t.Fatalf("trials %+v, chosen %d; want the first failed and the second chosen", res.Trials, res.Chosen)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"params":{"shrinkage":"0"},"error":"cv: setting shrinkage=0: `) {
		t.Errorf("JSON lacks the failed setting's error: %s", b)
	}
	p, _ = ParseParam("shrinkage=0")
	s.Params = []Param{p}
	if _, err := s.Run(d, folds); err == nil {
		t.Error("every setting failed, and the search did not")
	}
}

// TestTuneSkipFailedText: the table names a failed setting.
func TestTuneSkipFailedText(t *testing.T) {
	var b strings.Builder
	r := &SearchResult{Metric: classMetrics[0], Best: 1, Chosen: 1, Trials: []Trial{
		{Setting: Setting{{"shrinkage", "0"}}, Err: errors.New("cv: setting shrinkage=0: singular\ncovariance")},
		{Setting: Setting{{"shrinkage", "0.5"}}, Mean: 0.5, SE: 0.1},
	}}
	if err := r.Text(&b); err != nil {
		t.Fatal(err)
	}
	want := "shrinkage      log-loss (mean ± SE)\n0              failed: cv: setting shrinkage=0: singular covariance\n0.5            0.5 ± 0.1  best\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
}
