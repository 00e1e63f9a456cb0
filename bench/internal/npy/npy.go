// Package npy reads and writes the arrays of numpy's .npy files that the
// benchmark drivers exchange with the scikit-learn side: float64 and int64
// arrays in C order.
package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// The .npy format (numpy.lib.format): the magic "\x93NUMPY", a major and a
// minor version byte, the header length (uint16 little-endian in version
// 1, uint32 in versions 2 and 3), then the header, a Python dict literal
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 50), }
//
// padded with spaces and a newline so that the data start on a multiple of
// 64 bytes, then the array's elements in C order.

const npyMagic = "\x93NUMPY"

var (
	npyDescr   = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	npyFortran = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	npyShape   = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
)

// Read reads a little-endian float64 ('<f8') or int64 ('<i8') array in
// C order and returns its elements as float64 and its shape.
func Read(path string) ([]float64, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	descr, shape, err := readHeader(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var decode func(uint64) float64
	switch descr {
	case "<f8":
		decode = math.Float64frombits
	case "<i8":
		decode = func(u uint64) float64 { return float64(int64(u)) }
	default:
		return nil, nil, fmt.Errorf("%s: element type %q, want <f8 or <i8", path, descr)
	}
	n := 1
	for _, s := range shape {
		n *= s
	}
	x := make([]float64, n)
	buf := make([]byte, 1<<16)
	for lo := 0; lo < n; {
		hi := min(n, lo+len(buf)/8)
		b := buf[:(hi-lo)*8]
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		for i := range x[lo:hi] {
			x[lo+i] = decode(binary.LittleEndian.Uint64(b[8*i:]))
		}
		lo = hi
	}
	return x, shape, nil
}

func readHeader(r io.Reader) (descr string, shape []int, err error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return "", nil, err
	}
	if string(pre[:6]) != npyMagic {
		return "", nil, errors.New("not a .npy file")
	}
	var n int
	switch pre[6] {
	case 1:
		var l [2]byte
		_, err = io.ReadFull(r, l[:])
		n = int(binary.LittleEndian.Uint16(l[:]))
	case 2, 3:
		var l [4]byte
		_, err = io.ReadFull(r, l[:])
		n = int(binary.LittleEndian.Uint32(l[:]))
	default:
		return "", nil, fmt.Errorf(".npy version %d not supported", pre[6])
	}
	if err != nil {
		return "", nil, err
	}
	h := make([]byte, n)
	if _, err := io.ReadFull(r, h); err != nil {
		return "", nil, err
	}
	m := npyDescr.FindSubmatch(h)
	fo := npyFortran.FindSubmatch(h)
	sh := npyShape.FindSubmatch(h)
	if m == nil || fo == nil || sh == nil {
		return "", nil, fmt.Errorf("bad .npy header %q", h)
	}
	if string(fo[1]) == "True" {
		return "", nil, errors.New("arrays in Fortran order are not supported")
	}
	for _, s := range strings.Split(string(sh[1]), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return "", nil, fmt.Errorf("bad .npy shape %q", sh[1])
		}
		shape = append(shape, v)
	}
	return string(m[1]), shape, nil
}

// Write writes x as a little-endian float64 array of the given shape
// (version 1.0 header).
func Write(path string, x []float64, shape ...int) error {
	dims := make([]string, len(shape))
	n := 1
	for i, s := range shape {
		dims[i] = strconv.Itoa(s)
		n *= s
	}
	if n != len(x) {
		panic(fmt.Sprintf("benchgo: %d elements for shape %v", len(x), shape))
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	h := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }", tuple)
	pad := 64 - (len(npyMagic)+4+len(h)+1)%64
	h += strings.Repeat(" ", pad%64) + "\n"

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(npyMagic + "\x01\x00")
	binary.Write(w, binary.LittleEndian, uint16(len(h)))
	w.WriteString(h)
	var b [8]byte
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
