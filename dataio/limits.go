package dataio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/gendisc/gendisc/data"
)

// Limits bound what one read may take, so that no input (one endless line,
// a file larger than memory) can exhaust the machine: past a limit the read
// stops with an error instead. Options and SchemaOptions hold them; the
// zero value is the defaults.
type Limits struct {
	// MaxRecord is the most bytes of one record: a line of delimited
	// text (a row, its quoted line ends and its own line end
	// included), a line of JSON lines or of plain text (ReadLines), a
	// Parquet string value. 0 means DefaultMaxRecord. A longer record is
	// a *ParseError wrapping ErrTooLong, positioned at its line (or row).
	MaxRecord int
	// MaxMemory is the most bytes that Read and ReadWithSchema (and each
	// chunk of ReadChunks, with the levels met so far) may hold: the
	// Dataset's arrays, the strings of its categorical and text columns,
	// the input buffers, and a Parquet file that has to be read into
	// memory (see memoryUsed). 0 means DefaultMaxMemory(); a negative
	// value means no budget. A read that would pass it stops, before the
	// allocation that would, with a *ParseError wrapping ErrMemory.
	MaxMemory int64
}

// DefaultMaxRecord is the default Limits.MaxRecord, 64 MiB: far longer
// than any real row or line, short enough that one record cannot exhaust
// memory.
const DefaultMaxRecord = 64 << 20

// Errors of a read stopped by its Limits, wrapped in a ParseError.
var (
	// ErrTooLong: a record longer than Limits.MaxRecord.
	ErrTooLong = errors.New("record too long")
	// ErrMemory: the read would take more than Limits.MaxMemory.
	ErrMemory = errors.New("memory budget exceeded")
)

// The remedies that end the errors of the limits.
const (
	maxRecordRemedy = "(raise Limits.MaxRecord)"
	maxMemoryRemedy = "(raise Limits.MaxMemory, or read the file in chunks with ReadChunks)"
)

// tooLong is the error for the record at line (or row) line of src, longer
// than limit bytes.
func tooLong(src string, line, limit int) *data.ParseError {
	return &data.ParseError{File: src, Line: line, Err: tooLongErr(limit)}
}

// tooLongErr says that a record is longer than limit bytes.
func tooLongErr(limit int) error {
	return fmt.Errorf("%w: more than %s in one record %s", ErrTooLong, FormatSize(int64(limit)), maxRecordRemedy)
}

// overBudget is the error for a read of src that, at line (or row) line,
// would hold need bytes, more than the budget.
func overBudget(src string, line int, need, budget int64) *data.ParseError {
	take := FormatSize(need) + ", "
	if take == FormatSize(budget)+", " {
		take = "" // they differ in decimals not shown
	}
	return &data.ParseError{File: src, Line: line,
		Err: fmt.Errorf("%w: reading the data up to here would take %smore than the budget of %s %s",
			ErrMemory, take, FormatSize(budget), maxMemoryRemedy)}
}

// maxRecord returns the record limit that l sets.
func (l Limits) maxRecord() int {
	if l.MaxRecord <= 0 {
		return DefaultMaxRecord
	}
	return l.MaxRecord
}

// maxMemory returns the memory budget that l sets, -1 for none.
func (l Limits) maxMemory() int64 {
	switch {
	case l.MaxMemory < 0:
		return -1
	case l.MaxMemory == 0:
		return DefaultMaxMemory()
	}
	return l.MaxMemory
}

// DefaultMaxMemory returns the default Limits.MaxMemory: half the memory
// the process may use, which is the machine's (MemTotal of /proc/meminfo)
// or, when lower, the limit of its control group (cgroup v2's memory.max,
// v1's memory.limit_in_bytes). The other half is left to what the data is
// read for (a model's fit takes memory of its own) and to the rest of the
// machine. Where none of these can be read (not Linux), it is -1: no
// budget. It is computed once.
func DefaultMaxMemory() int64 { return defaultMaxMemory() }

var defaultMaxMemory = sync.OnceValue(func() int64 {
	total := memTotal()
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(path); err == nil {
			if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total < 0 || v < total) {
				total = v // "max" (no limit) does not parse
			}
		}
	}
	if total <= 0 {
		return -1
	}
	return total / 2
})

// memTotal returns the machine's memory from /proc/meminfo, -1 when it
// cannot tell.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("MemTotal:"))
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
		if err != nil {
			return -1
		}
		return kb << 10
	}
	return -1
}

// FormatSize writes a number of bytes in binary units, as ParseSize
// reads them: 64 MiB, 1.5 GiB, 100 B.
func FormatSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u, v := 0, float64(n)
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) + " " + units[u]
}

// ParseSize reads a number of bytes: a number (decimals allowed) followed
// by a unit, B, K/KB/KiB, M/MB/MiB, G/GB/GiB or T/TB/TiB, binary
// (1 KiB = 1 KB = 1024 B) whatever the spelling, case not mattering and
// spaces allowed between them; a bare number counts bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(c rune) bool { return (c < '0' || c > '9') && c != '.' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	shift, ok := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}[unit]
	if err != nil || !ok || v < 0 {
		return 0, fmt.Errorf("%q is not a size such as 64MiB or 1GiB", s)
	}
	bytes := v * float64(int64(1)<<shift)
	if bytes >= 1<<63 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(bytes), nil
}
