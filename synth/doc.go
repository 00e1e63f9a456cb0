// Package synth uses the distribution p(x, y) that a generative model
// carries: it draws synthetic rows (Sample), rebalances classes by
// appending synthetic rows of the smaller classes (Balance), and fills
// missing cells by their conditional expectation or by random draws
// (Impute, multiple imputation with draws > 0).
//
// It works on the interfaces of package gendisc: gendisc.Sampler and
// gendisc.ClassSampler for drawing (gendisc.TextSampler adds documents
// for text features), gendisc.Imputer and gendisc.RandImputer for
// filling. Randomness comes only from the *rand.Rand passed in, so a
// seed fixes the output.
//
// Values follow the schema of the model: a numeric column whose values
// were all integers (data.Column.Integral) gets its synthetic or imputed
// values rounded to integers; a categorical column holds level indices,
// as in a data.Dataset. A Clip (TrainingClip: the training ranges the
// model's schema keeps, data.Column.Range) truncates the numeric values of
// Sample, Balance and the draws of Impute to a box by rejection, so that
// the rows follow the model's law restricted to the box.
package synth
