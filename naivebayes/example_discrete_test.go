package naivebayes_test

import (
	"fmt"
	"log"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/naivebayes"
)

// accuracy is the share of the labelled rows of d whose most probable
// class under m is their class.
func accuracy(m *naivebayes.Model, d *data.Dataset) float64 {
	p := m.LogProba(nil, d)
	K := len(m.Classes())
	right, n := 0, 0
	for i, y := range d.Y {
		if y != y {
			continue
		}
		best := 0
		for k := range K {
			if p[i*K+k] > p[i*K+best] {
				best = k
			}
		}
		if best == int(y) {
			right++
		}
		n++
	}
	return float64(right) / float64(n)
}

// split returns the rows of d whose index is not (train) and is (test) a
// multiple of 5.
func split(d *data.Dataset) (train, test *data.Dataset) {
	var a, b []int
	for i := range d.N {
		if i%5 == 0 {
			b = append(b, i)
		} else {
			a = append(a, i)
		}
	}
	return d.Subset(a), d.Subset(b)
}

// A spam filter: multinomial naive Bayes on the words of the bundled SMS
// messages, with the words that speak most for each class.
func ExampleConfig_Fit_spam() {
	train, test := split(readBundled("sms_spam"))
	m, err := naivebayes.Config{Family: naivebayes.Multinomial}.Fit(train)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: test accuracy %.4f\n", m.Kind(), accuracy(m, test))
	top, err := m.TopTerms("text", 5)
	if err != nil {
		log.Fatal(err)
	}
	for k, class := range m.Classes() {
		fmt.Printf("%s:", class)
		for _, t := range top[k] {
			fmt.Printf(" %s", t.Term)
		}
		fmt.Println()
	}
	// Output:
	// multinomial-nb: test accuracy 0.9848
	// ham: lt gt he ü she
	// spam: claim prize 150p 16 tone
}

// Categorical naive Bayes on the mushrooms: the probability of each odour
// given the class.
func ExampleModel_LevelProbabilities() {
	d := readBundled("mushroom")
	train, test := split(d)
	m, err := naivebayes.Config{Family: naivebayes.Categorical}.Fit(train)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("test accuracy %.4f\n", accuracy(m, test))
	p, err := m.LevelProbabilities("odor")
	if err != nil {
		log.Fatal(err)
	}
	odor := d.Schema.Features[d.Schema.Feature("odor")]
	for v, level := range odor.Levels[:4] {
		fmt.Printf("odor %s: edible %.3f, poisonous %.3f\n", level, p[0][v], p[1][v])
	}
	// Output:
	// test accuracy 0.9594
	// odor a: edible 0.095, poisonous 0.000
	// odor c: edible 0.000, poisonous 0.052
	// odor f: edible 0.000, poisonous 0.547
	// odor l: edible 0.098, poisonous 0.000
}

// Mixed naive Bayes on adult: numeric columns Gaussian, categorical ones
// categorical, missing cells marginalised.
func ExampleConfig_Fit_mixed() {
	train, test := split(readBundled("adult"))
	m, err := naivebayes.Config{}.Fit(train)
	if err != nil {
		log.Fatal(err)
	}
	numeric, _, _ := m.GaussianFeatures()
	fmt.Printf("%d Gaussian and %d categorical features, test accuracy %.4f\n",
		len(numeric), len(m.CategoricalFeatures()), accuracy(m, test))
	// Output:
	// 6 Gaussian and 8 categorical features, test accuracy 0.8255
}
