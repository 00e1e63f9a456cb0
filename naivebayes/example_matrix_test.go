package naivebayes_test

import (
	"fmt"
	"log"

	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/text"
)

// Multinomial naive Bayes on a term-count matrix made by the vectorizer
// (scikit-learn's CountVectorizer and MultinomialNB).
func ExampleConfig_FitMatrix() {
	docs := []string{"cheap pills now", "cheap cheap offer", "lunch at noon", "see you at lunch"}
	vocab, x, err := text.VectorizerConfig{}.FitTransform(docs)
	if err != nil {
		log.Fatal(err)
	}
	m, err := naivebayes.Config{Family: naivebayes.Multinomial}.FitMatrix(x, []int{0, 0, 1, 1}, []string{"spam", "ham"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	x, _ = vocab.Transform([]string{"cheap lunch offer"})
	p := m.Proba(nil, x)
	fmt.Printf("%s %.3f, %s %.3f\n", m.Classes()[0], p[0], m.Classes()[1], p[1])
	// Output:
	// spam 0.764, ham 0.236
}
