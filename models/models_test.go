package models_test

import (
	"slices"
	"testing"

	"github.com/gendisc/gendisc/models"
)

// TestKinds checks that importing models registers every kind of every
// family.
func TestKinds(t *testing.T) {
	want := []string{"arpa", "bernoulli-nb", "categorical-nb", "complement-nb", "crf", "gaussian-nb", "gmm", "lda",
		"linear", "logistic", "mda", "multinomial-nb", "nb", "ngram", "qda"}
	if got := models.Kinds(); !slices.Equal(got, want) {
		t.Errorf("Kinds() = %q, want %q", got, want)
	}
}
