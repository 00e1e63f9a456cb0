// Package design turns a data.Dataset into the design matrix of a linear
// model (logistic or linear regression): one real column per numeric
// feature, standardised with the (weighted) mean and population standard
// deviation of the training data,
//
//	z_ij = (x_ij − m_j) / s_j,  m_j = Σ_i w_i x_ij / Σ_i w_i,
//	s_j² = Σ_i w_i (x_ij − m_j)² / Σ_i w_i   (divide by n, as StandardScaler),
//
// with s_j = 1 for a constant column (or the raw x_ij with
// Options.NoStandardize); and one 0/1 indicator column per level
// of a categorical feature (one-hot, not standardised). The means and
// variances are the moments of one class of package stats, computed in one
// pass over the rows (Chan's pairwise merge of blocks of rows).
//
// An Encoder is fitted once on training data and then encodes any data of
// the same schema the same way. A missing cell (NaN, or a category never
// seen in training) is filled with the training mean of each design column
// it stands for: 0 for a standardised numeric column, the level frequencies
// for an indicator block. Fitting refuses missing cells unless asked to
// impute.
//
// With Options.Text, a text column becomes term counts through package
// text (its tokenizer, n-grams, stop words and pruning: scikit-learn's
// CountVectorizer with token_pattern=r"(?u)[^\W_]+"): one sparse column
// per term of the column's training vocabulary, stored after the dense
// columns as a text.CSR block, so that model kernels take a dense part
// and a sparse part of each row. Terms never seen in training are left
// out. Without the option a text column is an error.
package design
