package datasets_test

import (
	"bufio"
	"fmt"

	"github.com/gendisc/gendisc/datasets"
)

func ExampleNames() {
	for _, name := range datasets.Names() {
		d, _ := datasets.Info(name)
		fmt.Printf("%-26s %5d rows %3d features %2d classes\n", name, d.Rows, d.Features, len(d.Classes))
	}
	// Output:
	// adult                      48842 rows  14 features  2 classes
	// breast_cancer_wdbc           569 rows  30 features  2 classes
	// breast_cancer_wisconsin      699 rows   9 features  2 classes
	// house_votes84                435 rows  16 features  2 classes
	// ionosphere                   351 rows  34 features  2 classes
	// iris                         150 rows   4 features  3 classes
	// mushroom                    8124 rows  22 features  2 classes
	// optdigits                   5620 rows  64 features 10 classes
	// pima_indians_diabetes        768 rows   8 features  2 classes
	// sms_spam                    5574 rows   1 features  2 classes
	// sonar                        208 rows  60 features  2 classes
	// wine                         178 rows  13 features  3 classes
}

func ExampleOpen() {
	r, err := datasets.Open("iris")
	if err != nil {
		panic(err)
	}
	defer r.Close()
	sc := bufio.NewScanner(r)
	for i := 0; i < 3 && sc.Scan(); i++ {
		fmt.Println(sc.Text())
	}
	// Output:
	// sepallength,sepalwidth,petallength,petalwidth,class
	// 5.1,3.5,1.4,0.2,Iris-setosa
	// 4.9,3.0,1.4,0.2,Iris-setosa
}

func ExampleInfo() {
	d, _ := datasets.Info("iris.csv")
	fmt.Println(d.Classes)
	fmt.Println("cite:", datasets.UCICitation)
	fmt.Println("and: ", d.Citation)
	fmt.Println("licence:", d.License)
	// Output:
	// [{Iris-setosa 50} {Iris-versicolor 50} {Iris-virginica 50}]
	// cite: Dua, D. and Graff, C., UCI Machine Learning Repository, University of California, Irvine
	// and:  ARFF header is the UCI description; Fisher (1936); donor M. Marshall.
	// licence: Package: GPL-2+ (debian/copyright, University of Waikato).
}
