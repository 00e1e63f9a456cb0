// Package text turns text columns into bag-of-words count matrices: the
// tokenizer, the vocabulary with its n-grams, stop words and pruning, and
// a compressed sparse row matrix whose memory follows the number of
// tokens, not documents × vocabulary.
//
// A document becomes tokens by splitting on every rune that is not a
// letter or a number (IsWordRune) and lower-casing each rune
// (unicode.ToLower); tokens shorter than VectorizerConfig.MinLen runes and
// stop words are dropped, and the terms are the n-grams of the remaining
// tokens joined by single spaces. The result is scikit-learn's
// CountVectorizer with token_pattern=r"(?u)[^\W_]+" and the same
// ngram_range, stop_words, min_df, max_df and max_features: the same terms
// in the same (alphabetical) column order and the same counts, which the
// tests check on the bundled sms_spam data (testdata/gen_reference.py).
//
// Three ways in:
//
//   - VectorizerConfig.Fit and FitTransform for a corpus in memory, split
//     across the cores, and VectorizerConfig.Count for the same counts
//     before pruning, in the ids of a Counter (what an updatable model
//     keeps);
//   - Counter for documents that arrive in chunks (fit --stream, update):
//     it keeps every term with its corpus and document frequency under a
//     stable id in order of first occurrence, merges with other Counters,
//     and gives the pruned, sorted Vocabulary with the column of every id
//     only at the end;
//   - Vocabulary.Transform for new documents, counting the occurrences of
//     terms it does not know.
//
// The tokenizer does not allocate per token: lower-cased tokens are
// written into a buffer reused across documents (runs of ASCII letters and
// digits through a table, other runes through package unicode), and terms
// are looked up by their bytes in place in an open-addressing hash table;
// only a term seen for the first time becomes a string. Rows of a count
// matrix are built with one slot per column (no per-row sorting), and
// Fit, FitTransform and Transform split the documents across the cores,
// merging the per-core term counts.
package text
