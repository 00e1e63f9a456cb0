// Package data reads CSV and TSV files, Parquet and JSON lines, compressed
// or not (Open tells them by their first bytes), into Datasets: contiguous
// float64 storage with NaN for missing cells, category levels as indices,
// text columns as strings, and a Schema that records the layout so that
// new data can be encoded the same way a model's training data was.
//
// Read infers the type of each column (numeric, categorical, text) and
// takes the last column as the class labels unless told otherwise;
// ReadWithSchema reads new data with the layout of a fitted model's
// training data, finding columns by name; ReadChunks reads a file too large
// for memory as a sequence of Datasets, the types inferred from the first
// chunk; FromMatrix wraps numbers already in memory.
//
// Missing cells are the empty field and the texts NA, N/A, NaN, nan, ?,
// null and NULL (case-sensitive, spaces around them allowed).
// Data errors are *ParseError values that name the file, line and column.
//
// Reading is parallel: the input is read in chunks of whole rows, each
// chunk split into blocks that the cores parse straight into the
// Dataset's arrays, while the next chunk is being read. WriteParquet and
// WriteJSONLines write a Dataset in those formats.
package data
