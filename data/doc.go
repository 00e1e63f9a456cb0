// Package data is the table that every model of gendisc fits and
// scores: a Dataset holds rows in contiguous float64 storage with NaN for
// missing cells, category levels as indices and text columns as strings,
// and a Schema records the layout (the columns, their kinds and levels)
// so that new data can be encoded the same way a model's training data
// was. Where the rows came from, and what reading them met, is a side
// struct, Dataset.Source (a Provenance: the source's name, the line of
// each row, warnings, unseen levels), that the positioned errors
// (Dataset.RowError, Dataset.CellError) use; a Dataset made in memory
// has the zero Provenance.
//
// FromMatrix and TextDataset wrap values already in memory; Schema.Rows
// encodes rows given as named fields; Schema.Extend, Remap and
// Schema.Union line up the schemas of data read apart. Data errors are
// *ParseError values that name the file, line and column; the errors of
// models about cells are MissingError and KindError.
//
// The file formats are elsewhere: package dataio reads CSV and TSV, JSON
// lines and Parquet, compressed or not, into Datasets and writes them.
// Package data imports only the standard library, so that the model
// families, which import it, do not depend on the formats' libraries.
package data
