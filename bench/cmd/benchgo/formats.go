package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/gzip"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/naivebayes"
)

// formats times the readers of the other formats on the rows of
// data.csv: dataio.ReadFile of data.parquet (the rows as Parquet, DOUBLE
// columns, zstd, written here once from data.csv, not timed) alone and
// with the fit of Gaussian naive Bayes; of data.jsonl (the rows as JSON
// lines, written likewise); dataio.ReadFile of data.csv, to compare; of
// data.csv.gz (bench/gendata.py), and the decompression of data.csv.gz
// alone, the decompressor's own time.
func formats(dir string, r *recorder) error {
	csvPath := filepath.Join(dir, "data.csv")
	pq := filepath.Join(dir, "data.parquet")
	if err := ensureFormat(csvPath, pq, dataio.WriteParquet); err != nil {
		return err
	}
	jsonl := filepath.Join(dir, "data.jsonl")
	if err := ensureFormat(csvPath, jsonl, dataio.WriteJSONLines); err != nil {
		return err
	}
	size := func(path string) int64 {
		st, err := os.Stat(path)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	read := func(path string) func() (*data.Dataset, error) {
		return func() (*data.Dataset, error) { return dataio.ReadFile(path, dataio.Options{}) }
	}
	if _, err := timed(r, "parquet read", size(pq), read(pq)); err != nil {
		return err
	}
	m, err := timed(r, "parquet read+fit", size(pq), func() (*naivebayes.Gaussian, error) {
		d, err := dataio.ReadFile(pq, dataio.Options{})
		if err != nil {
			return nil, err
		}
		return naivebayes.GaussianConfig{}.Fit(d)
	})
	if err != nil {
		return err
	}
	if err := saveGaussian(r, m); err != nil {
		return err
	}
	if _, err := timed(r, "jsonl read", size(jsonl), read(jsonl)); err != nil {
		return err
	}
	if _, err := timed(r, "csv read", size(csvPath), read(csvPath)); err != nil {
		return err
	}
	gz := csvPath + ".gz"
	if _, err := timed(r, "csv.gz read", size(gz), read(gz)); err != nil {
		return err
	}
	_, err = timed(r, "gunzip", size(gz), func() (int64, error) {
		f, err := os.Open(gz)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
		if err != nil {
			return 0, err
		}
		return io.Copy(io.Discard, zr)
	})
	return err
}

// ensureFormat writes the rows of the CSV file src to dst by write unless
// dst exists.
func ensureFormat(src, dst string, write func(io.Writer, *data.Dataset, string) error) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	d, err := dataio.ReadFile(src, dataio.Options{})
	if err != nil {
		return err
	}
	tmp := dst + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w, d, "")
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
