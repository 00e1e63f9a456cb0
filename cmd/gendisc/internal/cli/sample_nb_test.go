package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSampleNBGolden draws five rows from a mixed naive Bayes model of
// sms_spam (a text column) and a categorical naive Bayes model of
// house_votes84: the training header, categorical values as their level
// strings, each document a space-joined bag of words.
func TestSampleNBGolden(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ data, kind, golden, header string }{
		{"sms_spam", "nb", "sample_nb_sms_spam.csv", "text,class"},
		{"house_votes84", "categorical-nb", "sample_catnb_house_votes84.csv", "handicapped-infants,"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			model := filepath.Join(dir, tc.kind+".json")
			mustRun(t, "fit", "--data", tc.data, "--model", tc.kind, "--out", model)
			out := mustRun(t, "sample", "--model", model, "-n", "5", "--seed", "1")
			if !strings.HasPrefix(out, tc.header) || strings.Count(out, "\n") != 6 {
				t.Errorf("want the header %q… and 5 rows, got:\n%s", tc.header, out)
			}
			golden(t, tc.golden, out)
		})
	}
}
