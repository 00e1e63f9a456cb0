// Package data reads CSV and TSV files into Datasets: contiguous float64
// storage with NaN for missing cells, category levels as indices, text
// columns as strings, and a Schema that records the layout so that new data
// can be encoded the same way a model's training data was.
//
// Missing cells are the empty field and the texts NA, NaN, ?, and null.
// Data errors are *ParseError values that name the file, line and column.
package data
