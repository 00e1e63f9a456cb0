// Package ngram fits word n-gram language models: Shannon's (1948)
// generator of text word by word from the frequencies of word sequences,
// measured by cross-entropy and perplexity, and with one model per class
// and the class prior a generative text classifier.
//
// A document is tokenized (Config.Tokenize), padded with Order−1 Start
// symbols and one End symbol, and each token after the padding is
// predicted from the Order−1 before it:
//
//	log P(doc) = Σ_i log P(w_i | w_{i−n+1} … w_{i−1}),  i over the words and End
//	perplexity = exp(−Σ log P / tokens)
//
// The statistics are the counts of the highest-order n-grams, kept in
// compact open-addressing hash tables (4 bytes a word id, 8 a count, 8 a
// slot); the vocabulary (Config.MinCount), the lower orders and the
// smoothed probabilities (Smoothing) are derived from them when a model is
// finished, so that the Accumulator's Add and Merge give exactly the model
// of all the documents. For every context the next-word distribution sums
// to 1 over the vocabulary, Unknown and End.
//
// Models export to and import from the ARPA back-off format of SRILM and
// KenLM (WriteARPA, ReadARPA).
package ngram
