// Package datasets bundles real classification data sets from the UCI
// Machine Learning Repository, compressed into the binary, so that every
// example, test and command can run without any file at hand:
//
//	r, err := datasets.Open("iris")
//	...
//	d, err := dataio.Read(r, "iris", dataio.Options{})
//
// Every data set is a CSV file with a header row, the label in the last
// column, named class, with the original class names, missing values as
// empty fields and categorical values as strings. Info and All describe the
// data sets: rows, features, classes with their counts, missing cells,
// source and citation, and the sha256 of the CSV text.
//
// Beside the classification data sets are corpora (Corpora, OpenCorpus)
// for language models and treebanks (Treebanks, OpenTreebank) for
// sequence models: the English Web Treebank of Universal Dependencies in
// CoNLL-U, training part "ud_english_ewt" and development part
// "ud_english_ewt_dev" (CC BY-SA 4.0; cite the Citation of each), which
// package seqio reads.
//
// # Citation
//
// The data come from the UCI Machine Learning Repository (UCICitation) by
// way of the copies named in each Dataset's Source. Whoever redistributes a
// data set, or publishes results obtained on it, must cite both the UCI
// repository and the data set's own Citation. Some copies carry no licence
// of their own; their Citation says so.
//
// # Maintenance
//
// The compressed files under data/ and the catalog in metadata.go are
// generated from the shared datasets directory beside the repository, and
// committed, so building needs neither:
//
//	go generate ./datasets
//
// reads ../shared/datasets/README.md, checks every file against the sha256
// listed there and writes the gzip-compressed copies and the catalog.
package datasets
