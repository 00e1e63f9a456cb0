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
// of a categorical feature (one-hot, not standardised).
//
// An Encoder is fitted once on training data and then encodes any data of
// the same schema the same way. A missing cell (NaN, or a category never
// seen in training) is filled with the training mean of each design column
// it stands for: 0 for a standardised numeric column, the level frequencies
// for an indicator block. Fitting refuses missing cells unless asked to
// impute.
//
// With Options.Text, a text column becomes word counts: one sparse column
// per word of its training vocabulary (Tokens: scikit-learn
// CountVectorizer's default tokens), stored after the dense columns as a
// CSR block, so that model kernels take a dense part and a sparse part of
// each row. Words never seen in training are left out. Without the
// option a text column is an error.
package design
