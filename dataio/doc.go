// Package dataio reads CSV and TSV files, Parquet and JSON lines,
// compressed or not (Open tells them by their first bytes), into the
// Datasets of package data, and writes Datasets as Parquet and JSON lines.
// It is the package of file formats that package data, the table, is
// kept apart from: only programs that read files import it (and
// parquet-go and the decompressors with it).
//
// Read infers the type of each column (numeric, categorical, text) and
// takes the last column as the class labels unless told otherwise;
// ReadWithSchema reads new data with the layout of a fitted model's
// training data, finding columns by name; ReadChunks reads a file too large
// for memory as a sequence of Datasets, the types inferred from the first
// chunk; ReadLines reads plain text, a document per line. Options and
// SchemaOptions say how; Limits bound the longest record and the memory.
// Each Dataset read records its file, the line of each row and what the
// read met (warnings, unseen levels) in Dataset.Source.
//
// Missing cells are the empty field and the texts NA, N/A, NaN, nan, ?,
// null and NULL (case-sensitive, spaces around them allowed).
// Data errors are *data.ParseError values that name the file, line and
// column.
//
// Reading is parallel: the input is read in chunks of whole rows, each
// chunk split into blocks that the cores parse straight into the
// Dataset's arrays, while the next chunk is being read. WriteParquet and
// WriteJSONLines write a Dataset in those formats.
//
// Parquet is read here too, not in a package of its own, because it
// shares the reader with CSV and JSON lines (the column plans, type
// inference, memory budget and errors): a Parquet file is one of the
// reader's tables. The decompressors are package dataio/compress, which
// package models also uses for model files.
package dataio
