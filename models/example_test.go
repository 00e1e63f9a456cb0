package models_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

// Model files of several kinds, loaded by one call each, predict a flower
// given as named fields in any order, as a service receives it.
func Example() {
	// Fit four kinds of models on iris and save them, as gendisc fit
	// does, to a temporary directory.
	r, err := datasets.Open("iris")
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	iris, err := dataio.Read(r, "iris", dataio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "models")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var files []string
	for _, fit := range []func(*data.Dataset) (modelfile.Persistent, error){
		func(d *data.Dataset) (modelfile.Persistent, error) { return naivebayes.GaussianConfig{}.Fit(d) },
		func(d *data.Dataset) (modelfile.Persistent, error) { return gda.LDAConfig{}.Fit(d) },
		func(d *data.Dataset) (modelfile.Persistent, error) { return gda.QDAConfig{}.Fit(d) },
		func(d *data.Dataset) (modelfile.Persistent, error) { return logistic.Config{L2: 1}.Fit(d) },
	} {
		m, err := fit(iris)
		if err != nil {
			log.Fatal(err)
		}
		path := filepath.Join(dir, m.Kind()+".json")
		if err := modelfile.Save(path, m); err != nil {
			log.Fatal(err)
		}
		files = append(files, path)
	}

	// A new flower: its fields by name, in no particular order.
	flower := map[string]any{"petalwidth": 1.6, "sepalwidth": 2.7, "petallength": 4.9, "sepallength": 6}
	for _, path := range files {
		m, err := models.Load(path)
		if err != nil {
			log.Fatal(err)
		}
		c := m.(gendisc.Classifier)
		d, err := c.Schema().Rows([]map[string]any{flower})
		if err != nil {
			log.Fatal(err)
		}
		k := gendisc.Predict(c, d)[0]
		p := math.Exp(c.LogProba(nil, d)[k])
		fmt.Printf("%-12s %s (%.3f)\n", m.Kind(), c.Classes()[k], p)
	}

	// A field of the wrong type is an error value, *data.FieldError.
	m, err := models.Load(files[0])
	if err != nil {
		log.Fatal(err)
	}
	_, err = m.Schema().Rows([]map[string]any{{"petalwidth": 1.6, "sepalwidth": "2.7", "petallength": 4.9, "sepallength": 6}})
	fmt.Println(err)
	// Output:
	// gaussian-nb  Iris-versicolor (0.819)
	// lda          Iris-virginica (0.571)
	// qda          Iris-virginica (0.572)
	// logistic     Iris-versicolor (0.512)
	// record 0: field "sepalwidth": wrong type: the string "2.7", want a number (the column is numeric)
}
