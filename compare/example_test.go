package compare_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/compare"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/naivebayes"
)

// Example runs Gaussian naive Bayes against logistic regression on the
// binary task "2" vs "3" of optdigits and prints the summary table; WriteReport
// would write the HTML report.
func Example() {
	r, err := datasets.Open("optdigits")
	if err != nil {
		log.Fatal(err)
	}
	digits, err := dataio.Read(r, "optdigits", dataio.Options{})
	r.Close()
	if err != nil {
		log.Fatal(err)
	}
	task, err := compare.Binary(digits, "2", "3")
	if err != nil {
		log.Fatal(err)
	}
	learners := []compare.Learner{
		{Name: "nb", Family: compare.Generative, Settings: "Gaussian, var smoothing 1e-9",
			Fit: func(d *data.Dataset) (gendisc.Classifier, error) { return naivebayes.GaussianConfig{}.Fit(d) }},
		{Name: "logistic", Family: compare.Discriminative, Settings: "λ = 1",
			Fit: func(d *data.Dataset) (gendisc.Classifier, error) { return logistic.Config{}.Fit(d) }},
	}
	res, err := compare.Run(context.Background(), []compare.Task{{Name: "optdigits_2_vs_3", Data: task}},
		learners, compare.Config{Splits: 20, Sizes: []int{10, 100, 700}, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	res.WriteSummary(os.Stdout)
	x := res.Tasks[0].Crossovers[0]
	fmt.Printf("logistic stays ahead of naive Bayes from m = %d\n", x.M)
	// Output:
	// dataset           rows  classes  m       error nb         error logistic   m* nb/logistic  gap nb−logistic
	// optdigits_2_vs_3  1129  2        10–700  0.0323 ± 0.0060  0.0027 ± 0.0007  10              +0.0296
	// logistic stays ahead of naive Bayes from m = 10
}

// ExamplePlan reproduces the command
//
//	gendisc compare --data house_votes84 --splits 10 --sizes 20,50,100 --seed 3
//
// through the library: the command's default models, mixed naive Bayes
// (categorical columns here) and logistic regression with the training
// means imputed to the missing cells, its random draws seeded by the seed
// of the splits. Plan finds which models apply to which data sets, Run
// draws the splits, and WriteSummary prints what the command prints;
// WriteReports would write its report directory, byte for byte the same
// curves.csv, summary.txt and plots.
func ExamplePlan() {
	r, err := datasets.Open("house_votes84")
	if err != nil {
		log.Fatal(err)
	}
	votes, err := dataio.Read(r, "house_votes84", dataio.Options{})
	r.Close()
	if err != nil {
		log.Fatal(err)
	}
	const seed = 3
	models := []compare.Model{
		{Name: "nb", Settings: "mixed naive Bayes, α = 1",
			Fit: func(d *data.Dataset) (gendisc.Model, error) { return naivebayes.Config{}.Fit(d) }},
		{Name: "logistic", Settings: "λ = 1, missing cells imputed",
			Fit: func(d *data.Dataset) (gendisc.Model, error) {
				return logistic.Config{Impute: true, Rand: rand.New(rand.NewPCG(seed, 0))}.Fit(d)
			}},
	}
	tasks := []compare.Task{{Name: "house_votes84", Data: votes}}
	e, err := compare.Plan(tasks, models, compare.PlanOptions{RequireTasks: true, RequireModels: true})
	if err != nil {
		log.Fatal(err)
	}
	out, err := e.Run(context.Background(), compare.Config{Splits: 10, Sizes: []int{20, 50, 100}, Seed: seed})
	if err != nil {
		log.Fatal(err)
	}
	if err := out.WriteSummary(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// dataset        rows  classes  m       error nb         error logistic   m* nb/logistic  gap nb−logistic
	// house_votes84  435   2        20–100  0.0952 ± 0.0034  0.0496 ± 0.0029  20              +0.0457
}
