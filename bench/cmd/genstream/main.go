// Command genstream writes the large CSV files of bench/README.md's
// streaming measurements (gendisc fit --stream) to standard output:
//
//	genstream mixed   25,000,000 rows of 8 numeric columns (1% of the cells
//	                  missing) and 2 categorical ones, 4 classes: 2.11 GB
//	genstream zipf    documents of 50–149 words drawn from a Zipf law
//	                  (s = 1.1) over 3,000,000 words, 4 classes, until
//	                  2.1 GB: a vocabulary of millions of words
//
// Both are the same for every run (fixed seeds).
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "mixed" && os.Args[1] != "zipf") {
		fmt.Fprintln(os.Stderr, "usage: genstream mixed|zipf > FILE.csv")
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
