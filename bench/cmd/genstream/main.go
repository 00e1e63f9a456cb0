// Command genstream writes the large CSV files of bench/README.md's
// streaming measurements (gendisc fit --stream) to standard output:
//
//	genstream mixed   25,000,000 rows of 8 numeric columns (1% of the cells
//	                  missing) and 2 categorical ones, 4 classes: 2.11 GB
//	genstream zipf    documents of 50–149 words drawn from a Zipf law
//	                  (s = 1.1) over 3,000,000 words, 4 classes, until
//	                  2.1 GB: a vocabulary of millions of words
//	genstream gauss [-shards N] [-rows R] [-features D] [-classes K] DIR
//	                  N files DIR/part-00000-of-0000N.csv ..., each with its
//	                  header and R rows of D numeric columns and a class
//	                  c0 ... c(K−1): feature j of class k is
//	                  N(0.25·k·(1 + j mod 3), 1), written with 6 decimals.
//	                  The defaults, 64 shards of 850,000 rows of 20
//	                  features, 4 classes, make 10.3 GB, the data set of
//	                  bench/README.md's Beam measurements
//
// Each is the same for every run (fixed seeds; shard s of gauss is seeded
// by s alone, so a shard does not depend on how many there are).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
)

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "gauss" {
		if err := gauss(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "genstream:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 2 || (os.Args[1] != "mixed" && os.Args[1] != "zipf") {
		fmt.Fprintln(os.Stderr, "usage: genstream mixed|zipf > FILE.csv\n       genstream gauss [-shards N] [-rows R] [-features D] [-classes K] DIR")
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if os.Args[1] == "mixed" {
		mixed(w)
	} else {
		zipf(w)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genstream:", err)
		os.Exit(1)
	}
}

// mixed writes rows whose numeric columns are N(0.3·k, 1) for class k.
func mixed(w *bufio.Writer) {
	rng := rand.New(rand.NewPCG(1, 2))
	w.WriteString("a,b,c,d,e,f,g,h,color,size,class\n")
	levels := []string{"red", "green", "blue", "black", "white"}
	sizes := []string{"S", "M", "L"}
	var buf []byte
	for range 25_000_000 {
		k := rng.IntN(4)
		buf = buf[:0]
		for range 8 {
			if rng.IntN(100) == 0 {
				buf = append(buf, ',')
				continue
			}
			buf = strconv.AppendFloat(buf, float64(k)*0.3+rng.NormFloat64(), 'f', 6, 64)
			buf = append(buf, ',')
		}
		buf = append(buf, levels[(k+rng.IntN(3))%5]...)
		buf = append(buf, ',')
		buf = append(buf, sizes[rng.IntN(3)]...)
		buf = append(buf, ",c"...)
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// zipf writes documents of words "w" + a base-36 number.
func zipf(w *bufio.Writer) {
	rng := rand.New(rand.NewPCG(3, 4))
	z := rand.NewZipf(rng, 1.1, 5, 3_000_000)
	w.WriteString("text,class\n")
	var buf []byte
	for total := 0; total < 2_100_000_000; total += len(buf) {
		buf = buf[:0]
		n := 50 + rng.IntN(100)
		for t := range n {
			if t > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, 'w')
			buf = strconv.AppendUint(buf, z.Uint64(), 36)
		}
		buf = append(buf, ",c"...)
		buf = strconv.AppendInt(buf, int64(rng.IntN(4)), 10)
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// gauss writes the shards of the Gaussian class problem (see the package
// comment), as many at a time as there are cores.
func gauss(args []string) error {
	fs := flag.NewFlagSet("gauss", flag.ExitOnError)
	shards := fs.Int("shards", 64, "write `n` files")
	rows := fs.Int("rows", 850_000, "`r` rows per file")
	features := fs.Int("features", 20, "`d` numeric columns")
	classes := fs.Int("classes", 4, "`k` classes")
	fs.Parse(args)
	if fs.NArg() != 1 || *shards < 1 || *rows < 0 || *features < 1 || *classes < 1 {
		return errors.New("usage: genstream gauss [-shards N] [-rows R] [-features D] [-classes K] DIR")
	}
	dir := fs.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, runtime.GOMAXPROCS(0))
	)
	for s := range *shards {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			name := filepath.Join(dir, fmt.Sprintf("part-%05d-of-%05d.csv", s, *shards))
			if err := gaussShard(name, uint64(s), *rows, *features, *classes); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// gaussShard writes one shard of gauss, seeded by s, to the file name.
func gaussShard(name string, s uint64, rows, features, classes int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	buf := []byte{}
	for j := range features {
		buf = fmt.Appendf(buf, "x%d,", j+1)
	}
	buf = append(buf, "class\n"...)
	w.Write(buf)
	rng := rand.New(rand.NewPCG(s, 11))
	for range rows {
		k := rng.IntN(classes)
		buf = buf[:0]
		for j := range features {
			mu := 0.25 * float64(k) * float64(1+j%3)
			buf = strconv.AppendFloat(buf, mu+rng.NormFloat64(), 'f', 6, 64)
			buf = append(buf, ',')
		}
		buf = append(buf, 'c')
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
