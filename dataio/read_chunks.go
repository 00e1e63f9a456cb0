package dataio

import (
	"io"
	"iter"

	"github.com/gendisc/gendisc/data"
)

// ReadChunks reads a delimited text file in chunks of whole rows, about
// size bytes of the input each (a longer row makes its chunk longer), and
// yields each chunk as a Dataset, for a model fitted on data larger than
// memory; size <= 0 means 32 MB. The format, the options and the parallel
// parser are those of Read, as are the errors: *ParseError values that
// name the line and column of the file. Dataset.Source.Lines are lines of the
// file. The sequence ends after the first error; it can be ranged over
// once.
//
// The first chunk is read as Read reads a whole file: the column types
// are inferred from its rows and its categorical levels are sorted.
// Later chunks keep that layout: a numeric column must hold numbers (a
// word or an infinite number is an error), and categorical levels and
// classes not seen before are appended to the column's levels, so that
// the index of a level never changes. Each chunk's Dataset has a Schema
// of its own, a clone with the levels seen up to and including that
// chunk, Integral set when every number read so far in the column
// was an integer, and Range holding the numbers read so far; later chunks
// leave it alone. A chunk's arrays are its
// own as well.
//
// Memory is about two chunk buffers and one chunk's Dataset, whatever
// the size of the input, besides the levels of categorical columns. The
// input is read in one pass, except that, as with Read, the first chunk
// may be read twice when r can seek (see Read on numbers that turn into
// text).
func ReadChunks(r io.Reader, source string, opt Options, size int) iter.Seq2[*data.Dataset, error] {
	cfg := defaultConfig
	if size > 0 {
		cfg.chunk = size
	}
	return readChunks(r, source, opt, cfg)
}

// readChunks is ReadChunks with a configuration.
func readChunks(in io.Reader, source string, opt Options, cfg readConfig) iter.Seq2[*data.Dataset, error] {
	cfg.perChunk, cfg.limits = true, opt.Limits
	return func(yield func(*data.Dataset, error) bool) {
		more := true
		r, forced, err := startInferred(in, source, opt, cfg, func(r *reader) (err error) {
			more, err = r.readSomeRows()
			return err
		})
		var d *data.Dataset
		if err == nil {
			d, err = r.inferred(forced)
		}
		if err != nil {
			yield(nil, err)
			return
		}
		r.fixTypes(d.Schema)
		for yield(d, nil) && more {
			r.n, r.x, r.y, r.w, r.lines = 0, nil, nil, nil, nil
			s := d.Schema
			more, err = r.readSomeRows()
			if err == nil && r.n == 0 {
				return
			}
			if err == nil {
				d, err = r.withSchema(s, true)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			r.setIntegral(d.Schema)
		}
	}
}

// readSomeRows reads chunks until one holds rows or the input ends; more
// reports that input is left.
func (r *reader) readSomeRows() (more bool, err error) {
	for more = true; more && r.n == 0 && err == nil; {
		more, err = r.readChunk()
	}
	return more, err
}

// fixTypes makes the types inferred from the first chunk, in schema s, the
// types of the later chunks: an inferred column that stayed numeric must
// hold numbers, and the string ids of a categorical column are the
// indices of its levels, new levels taking the next ones.
func (r *reader) fixTypes(s *data.Schema) {
	for f := range r.plans {
		pl := &r.plans[f]
		switch {
		case pl.mode == cellInfer:
			pl.mode = cellNumber
		case pl.mode == cellString:
			col := schemaColumn(s, *pl)
			r.cols[f].dict, r.cols[f].strs, r.cols[f].bytes = nil, nil, 0
			for _, l := range col.Levels {
				intern(&r.cols[f], l)
			}
		}
	}
}

// setIntegral sets Integral in the numeric columns of s from the numbers
// read so far.
func (r *reader) setIntegral(s *data.Schema) {
	for f, pl := range r.plans {
		if pl.mode == cellNumber && pl.dst != destW {
			schemaColumn(s, pl).Integral = r.cols[f].integral()
		}
	}
}

// schemaColumn returns the column of s that field plan pl reads into (not
// the weight).
func schemaColumn(s *data.Schema, pl fieldPlan) *data.Column {
	if pl.dst == destY {
		return s.Target
	}
	return &s.Features[pl.j]
}
