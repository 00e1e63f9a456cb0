package metrics_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/gendisc/gendisc/metrics"
)

func ExampleClassification() {
	classes := []string{"ham", "spam"}
	y := []int{0, 0, 1, 1, 1, 0}
	// One row of P(ham), P(spam) per message.
	proba := []float64{
		0.9, 0.1,
		0.6, 0.4,
		0.2, 0.8,
		0.7, 0.3,
		0.1, 0.9,
		0.4, 0.6,
	}
	r, err := metrics.Classification(classes, y, proba, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("accuracy %.4f, log-loss %.4f nats\n", r.Accuracy, r.LogLoss)
	b := r.Binary
	fmt.Printf("positive class %s: TP %v FP %v FN %v TN %v, ROC AUC %.4f\n", b.Positive, b.TP, b.FP, b.FN, b.TN, b.ROCAUC)
	// Output:
	// accuracy 0.6667, log-loss 0.5108 nats
	// positive class spam: TP 2 FP 1 FN 1 TN 2, ROC AUC 0.7778
}

func ExampleReport_Text() {
	r, err := metrics.Classification([]string{"setosa", "versicolor", "virginica"},
		[]int{0, 1, 2, 2},
		[]float64{
			0.8, 0.1, 0.1,
			0.1, 0.6, 0.3,
			0.0, 0.6, 0.4,
			0.0, 0.2, 0.8,
		}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r.Text(os.Stdout)
	// Output:
	// rows      4
	// accuracy  0.7500
	// error     0.2500
	// log-loss  0.4684 nats/row, 0.6757 bits/row
	// Brier     0.2800 (sum over classes)
	// ROC AUC   0.9444 (one-vs-rest, macro)
	//
	// confusion matrix (rows: true class, columns: predicted class)
	//               setosa  versicolor  virginica
	// setosa             1           0          0
	// versicolor         0           1          0
	// virginica          0           1          1
	//
	// class         precision  recall      F1  support  ROC AUC
	// setosa           1.0000  1.0000  1.0000        1   1.0000
	// versicolor       0.5000  1.0000  0.6667        1   0.8333
	// virginica        1.0000  0.5000  0.6667        2   1.0000
	// macro avg        0.8333  0.8333  0.7778        4   0.9444
	// weighted avg     0.8750  0.7500  0.7500        4   0.9583
}

func ExampleRegression() {
	y := []float64{3.0, -0.5, 2.0, 7.0}
	pred := []float64{2.5, 0.0, 2.0, 8.0}
	r, err := metrics.Regression(y, pred, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := json.Marshal(r)
	fmt.Println(string(out))
	r.Text(os.Stdout)
	// Output:
	// {"n":4,"total_weight":4,"mse":0.375,"rmse":0.6123724356957945,"mae":0.5,"r2":0.9486081370449679,"sigma2":0.375,"log_likelihood":-3.7140956267952383,"mean_log_likelihood":-0.9285239066988096}
	// rows            4
	// RMSE            0.612372
	// MSE             0.375
	// MAE             0.5
	// R²              0.948608
	// σ²              0.375 (MLE of the residual variance)
	// log-likelihood  -3.7141 nats, -0.928524 nats/row (Gaussian residuals)
}
