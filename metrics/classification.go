package metrics

import (
	"fmt"
	"math"
	"slices"

	"github.com/gendisc/gendisc/internal/kernel"
)

// Report is the evaluation of predicted class probabilities against the
// true classes. Every figure is weighted by the sample weights when there
// are any; "weight" below means the number of rows when there are none.
// A figure whose denominator is zero (a rate 0/0) is undefined: NaN here,
// null in JSON and "undefined" in Text, never a made-up 0.
type Report struct {
	// Classes are the class names, in the order of the probability columns.
	Classes []string `json:"classes"`
	// N is the number of rows; TotalWeight the sum of their weights (N
	// without weights).
	N           int     `json:"n"`
	TotalWeight float64 `json:"total_weight"`
	// Confusion[t][p] is the weight of the rows of true class t predicted
	// as class p (the argmax of the row's probabilities, ties to the lowest
	// index): rows true, columns predicted, as sklearn's confusion_matrix.
	Confusion [][]float64 `json:"confusion"`
	// Accuracy is the weight on the diagonal of Confusion over the total;
	// Error = 1 − Accuracy.
	Accuracy float64 `json:"accuracy"`
	Error    float64 `json:"error"`
	// LogLoss is the mean negative log-probability of the true class, in
	// nats, with W the total weight:
	//
	//	LogLoss = −(1/W) Σ_i w_i log(q_{i,y_i} / Σ_k q_ik),  q_ik = min(max(p_ik, ε), 1−ε),
	//
	// ε = 2⁻⁵² as sklearn's log_loss (eps="auto"). LogLossBits = LogLoss / ln 2.
	LogLoss     float64 `json:"log_loss"`
	LogLossBits float64 `json:"log_loss_bits"`
	// Brier is the multiclass Brier score (Brier 1950), in [0, 2]:
	//
	//	Brier = (1/W) Σ_i w_i Σ_k (p_ik − [y_i = k])².
	//
	// For two classes it is twice sklearn's brier_score_loss, which is
	// Binary.BrierScoreLoss.
	Brier float64 `json:"brier"`
	// PerClass holds the one-vs-rest figures of each class, in class order.
	PerClass []ClassMetrics `json:"per_class"`
	// Macro averages the per-class figures over the classes with equal
	// weights; Weighted weighs each class by its Support (sklearn's
	// average="weighted"). Both leave out the classes where a figure is
	// undefined (see Averages).
	Macro    Averages `json:"macro_avg"`
	Weighted Averages `json:"weighted_avg"`
	// Binary is set when there are exactly two classes.
	Binary *Binary `json:"binary,omitempty"`
}

// ClassMetrics are the figures of one class k against the rest, from
// TP_k = Confusion[k][k], the column sum (predicted as k) and the row sum
// (truly k):
//
//	Precision = TP_k / predicted_k              NaN when nothing is predicted as k
//	Recall    = TP_k / Support                  NaN when k has no weight
//	F1        = 2 Precision Recall / (Precision + Recall)
//
// F1 is 2TP/(2TP + FP + FN) in other terms, so it is 0 when only one of
// Precision and Recall is undefined (TP = 0 then) and NaN when both are
// (scikit-learn's zero_division=np.nan).
type ClassMetrics struct {
	Class     string  `json:"class"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// Support is the weight of the rows of the class.
	Support float64 `json:"support"`
	// ROCAUC is the area under the ROC curve of the class's probability
	// p_ik as a score for "y_i = k" (one-vs-rest). NaN when the class or
	// the rest has no weight.
	ROCAUC float64 `json:"roc_auc"`
}

// Averages are averages of ClassMetrics over the classes. Precision,
// Recall and F1 average the classes where they are defined (their shares
// renormalised over those), NaN when none is, as scikit-learn's
// zero_division=np.nan. ROCAUC is NaN when any class's is (sklearn
// refuses such input); for K > 2 it equals sklearn's
// roc_auc_score(multi_class="ovr").
type Averages struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	ROCAUC    float64 `json:"roc_auc"`
}

// Binary is the two-class view, with the second class (index 1) as the
// positive one, as sklearn's pos_label=1 on sorted labels. The counts are
// weights when there are sample weights.
//
//	TypeIErrorRate  = FP / (FP + TN)   false positive rate, 1 − Specificity
//	TypeIIErrorRate = FN / (FN + TP)   false negative rate, 1 − Recall
//	Precision       = TP / (TP + FP)
//	Recall          = TP / (TP + FN)   sensitivity, true positive rate
//	Specificity     = TN / (TN + FP)   true negative rate
//	F1              = 2 Precision Recall / (Precision + Recall)
//
// each NaN when its denominator is 0 (F1 as in ClassMetrics).
type Binary struct {
	// Positive is the name of the positive class.
	Positive        string  `json:"positive"`
	TP              float64 `json:"tp"`
	FP              float64 `json:"fp"`
	FN              float64 `json:"fn"`
	TN              float64 `json:"tn"`
	TypeIErrorRate  float64 `json:"type_i_error_rate"`
	TypeIIErrorRate float64 `json:"type_ii_error_rate"`
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	Specificity     float64 `json:"specificity"`
	F1              float64 `json:"f1"`
	// BrierScoreLoss is sklearn's brier_score_loss, the mean squared
	// error of the positive probability, half of Report.Brier:
	//
	//	BrierScoreLoss = (1/W) Σ_i w_i (p_i1 − [y_i = 1])².
	BrierScoreLoss float64 `json:"brier_score_loss"`
	// ROCAUC is the area under the ROC curve of p_i1 as a score for the
	// positive class (sklearn's roc_auc_score), NaN when either class has
	// no weight.
	ROCAUC float64 `json:"roc_auc"`
}

// sumTolerance is how far from 1 a row of probabilities may sum.
const sumTolerance = 1e-6

// logChunk is how many rows' log-loss terms Classification takes the
// logarithms of at once.
const logChunk = 256

// Classification evaluates predicted probabilities: y[i] is the true class
// of row i, an index into classes; proba[i*K+k] is the predicted
// probability of class k for row i, K = len(classes); weight holds one
// weight per row, or is nil for weights of 1.
//
// It returns an error wrapping ErrClasses when K < 2, ErrNoRows when y is
// empty, ErrLength when len(proba) ≠ len(y)·K or len(weight) ≠ len(y),
// ErrClass for y[i] outside [0, K), ErrProbability for a probability that
// is NaN or outside [0, 1] or a row that does not sum to 1 within 1e-6, and
// ErrWeight for a weight that is negative, NaN or infinite or a total
// weight of 0; errors about one row are *RowError values.
func Classification(classes []string, y []int, proba, weight []float64) (*Report, error) {
	K, n := len(classes), len(y)
	switch {
	case K < 2:
		return nil, fmt.Errorf("metrics: %w: %d", ErrClasses, K)
	case n == 0:
		return nil, fmt.Errorf("metrics: %w", ErrNoRows)
	case len(proba) != n*K:
		return nil, fmt.Errorf("metrics: %w: %d probabilities for %d rows × %d classes", ErrLength, len(proba), n, K)
	}
	total, err := checkWeights(weight, n)
	if err != nil {
		return nil, err
	}
	conf := make([]float64, K*K)
	var logLoss, brier, brierPos float64
	// The log-loss's terms take their logarithms a chunk of rows at a
	// time (kernel.Log, bit for bit math.Log, four at once), added to
	// logLoss in row order as one at a time would be.
	var terms [logChunk]float64
	chunk := 0 // the first row of the chunk
	addLogs := func(end int) {
		r := terms[:end-chunk]
		kernel.Log(r)
		for j, l := range r {
			logLoss -= weightOf(weight, chunk+j) * l
		}
		chunk = end
	}
	for i, yi := range y {
		if yi < 0 || yi >= K {
			return nil, rowErr(i, ErrClass, "%d, want 0 to %d", yi, K-1)
		}
		p := proba[i*K : (i+1)*K]
		best, sum, clipped, sq := 0, 0.0, 0.0, 0.0
		for k, pk := range p {
			if !(pk >= 0 && pk <= 1) {
				return nil, rowErr(i, ErrProbability, "class %q: %v", classes[k], pk)
			}
			if pk > p[best] {
				best = k
			}
			sum += pk
			clipped += clip(pk)
			d := pk
			if k == yi {
				d--
			}
			sq += d * d
		}
		if math.Abs(sum-1) > sumTolerance {
			return nil, rowErr(i, ErrProbability, "probabilities sum to %v, not 1", sum)
		}
		w := weightOf(weight, i)
		conf[yi*K+best] += w
		terms[i-chunk] = clip(p[yi]) / clipped
		if i+1-chunk == logChunk {
			addLogs(i + 1)
		}
		brier += w * sq
		if K == 2 {
			d := p[1] - float64(yi)
			brierPos += w * d * d
		}
	}
	addLogs(n)

	r := &Report{
		Classes:     slices.Clone(classes),
		N:           n,
		TotalWeight: total,
		Confusion:   make([][]float64, K),
		LogLoss:     logLoss / total,
		LogLossBits: logLoss / total / math.Ln2,
		Brier:       brier / total,
		PerClass:    make([]ClassMetrics, K),
	}
	correct := 0.0
	for t := range K {
		r.Confusion[t] = conf[t*K : (t+1)*K : (t+1)*K]
		correct += conf[t*K+t]
	}
	r.Accuracy = correct / total
	r.Error = 1 - r.Accuracy

	auc := newAUC(y, weight)
	for k := range K {
		predicted, support := 0.0, 0.0
		for j := range K {
			predicted += conf[j*K+k]
			support += conf[k*K+j]
		}
		tp := conf[k*K+k]
		prec, rec := ratio(tp, predicted), ratio(tp, support)
		c := ClassMetrics{
			Class:     classes[k],
			Precision: prec,
			Recall:    rec,
			F1:        f1(prec, rec),
			Support:   support,
			ROCAUC:    auc.oneVsRest(proba, K, k),
		}
		r.PerClass[k] = c
	}
	macro, weighted := make([]float64, K), make([]float64, K)
	for k, c := range r.PerClass {
		macro[k], weighted[k] = 1/float64(K), c.Support/total
	}
	r.Macro, r.Weighted = average(r.PerClass, macro), average(r.PerClass, weighted)

	if K == 2 {
		b := &Binary{
			Positive:       classes[1],
			TP:             conf[3],
			FP:             conf[1],
			FN:             conf[2],
			TN:             conf[0],
			Precision:      r.PerClass[1].Precision,
			Recall:         r.PerClass[1].Recall,
			Specificity:    r.PerClass[0].Recall,
			F1:             r.PerClass[1].F1,
			BrierScoreLoss: brierPos / total,
			ROCAUC:         r.PerClass[1].ROCAUC,
		}
		b.TypeIErrorRate = ratio(b.FP, b.FP+b.TN)
		b.TypeIIErrorRate = ratio(b.FN, b.FN+b.TP)
		r.Binary = b
	}
	return r, nil
}

// average returns the averages of the figures of cs with the classes'
// shares share[k] (summing to 1): each figure Σ share_k x_k / Σ share_k
// over the classes where it is defined (NaN when none is); ROCAUC
// Σ share_k ROCAUC_k over every class, NaN when any class's is.
func average(cs []ClassMetrics, share []float64) Averages {
	figure := func(x func(ClassMetrics) float64) float64 {
		sum, w := 0.0, 0.0
		for k, c := range cs {
			if v := x(c); !math.IsNaN(v) {
				sum += share[k] * v
				w += share[k]
			}
		}
		return ratio(sum, w)
	}
	a := Averages{
		Precision: figure(func(c ClassMetrics) float64 { return c.Precision }),
		Recall:    figure(func(c ClassMetrics) float64 { return c.Recall }),
		F1:        figure(func(c ClassMetrics) float64 { return c.F1 }),
	}
	for k, c := range cs {
		a.ROCAUC += share[k] * c.ROCAUC
	}
	return a
}

// clip is log_loss's clipping of a probability to [ε, 1−ε].
func clip(p float64) float64 {
	const eps = 0x1p-52
	return min(max(p, eps), 1-eps)
}

// ratio is a/b, or NaN (undefined) when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// f1 is the harmonic mean of precision and recall: 0 when both are 0 or
// only one is undefined (TP = 0 then), NaN when both are undefined.
func f1(precision, recall float64) float64 {
	switch p, r := math.IsNaN(precision), math.IsNaN(recall); {
	case p && r:
		return math.NaN()
	case p || r:
		return 0
	}
	if precision+recall == 0 {
		return 0
	}
	return 2 * precision * recall / (precision + recall)
}
