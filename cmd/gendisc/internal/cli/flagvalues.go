package cli

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gendisc/gendisc/internal/enum"
)

// Every invalid flag value is a misuse (exit status 2), found before any
// data is read: a value of one flag is checked by its flag.Value's Set
// (the types below), and a value that is valid only with the others (a
// fixed class prior with --prior-alpha, a text configuration as a whole)
// by its flag.Value's checkFlag, which runCommand calls once the command
// line is parsed (checkFlags).

// A flagChecker is a flag value whose validity depends on other flags or
// on every repetition of the flag.
type flagChecker interface {
	checkFlag() error
}

// checkFlags runs the checkFlag of every flag of fs that has one and
// returns the first error as a usage error naming the flag.
func checkFlags(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if c, ok := f.Value.(flagChecker); ok && err == nil {
			if e := c.checkFlag(); e != nil {
				err = usagef("%s: %v", dashed(f.Name), e)
			}
		}
	})
	return err
}

// intFlag is a whole-number flag that refuses values below min.
type intFlag[T ~int | ~int64] struct {
	p   *T
	min T
}

// atLeast returns a flag.Value that sets *p to a whole number ≥ min.
func atLeast[T ~int | ~int64](p *T, min T) *intFlag[T] { return &intFlag[T]{p, min} }

func (f *intFlag[T]) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*f.p), 10)
}

func (f *intFlag[T]) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < int64(f.min) || int64(T(v)) != v {
		return fmt.Errorf("want a whole number ≥ %d", int64(f.min))
	}
	*f.p = T(v)
	return nil
}

// positiveDuration is a duration flag that refuses durations ≤ 0.
type positiveDuration time.Duration

func (f *positiveDuration) String() string { return time.Duration(*f).String() }

func (f *positiveDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a duration > 0, such as 30s or 2m")
	}
	*f = positiveDuration(d)
	return nil
}

// choiceFlag is a flag whose value is one of a list of names; the empty
// name, a setting's default, is not among them. Its errors are those of
// enum.Names: unknown solver "x" (want gd, sgd, newton or lbfgs).
type choiceFlag[T ~string] struct {
	p     *T
	names enum.Names[int]
}

// oneOf returns a flag.Value that sets *p to one of choices; what names
// a value in errors.
func oneOf[T ~string](p *T, what string, choices ...T) *choiceFlag[T] {
	f := &choiceFlag[T]{p: p, names: enum.Names[int]{What: what}}
	for _, c := range choices {
		f.names.List = append(f.names.List, string(c))
	}
	return f
}

func (f *choiceFlag[T]) String() string {
	if f == nil || f.p == nil {
		return ""
	}
	return string(*f.p)
}

func (f *choiceFlag[T]) Set(s string) error {
	if _, err := f.names.Parse(s); err != nil {
		return err
	}
	*f.p = T(s)
	return nil
}

// finite is a float flag that refuses NaN and infinities.
type finite float64

func (f *finite) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *finite) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("want a finite number")
	}
	*f = finite(v)
	return nil
}

// stdinFlags are the flags whose value - reads standard input: at most
// one of them can have it.
var stdinFlags = []string{"model", "model-file", "data"}

// checkStdin returns a usage error when two flags of fs read standard
// input.
func checkStdin(fs *flag.FlagSet) error {
	var both []string
	for _, name := range stdinFlags {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "-" {
			both = append(both, dashed(name))
		}
	}
	if len(both) > 1 {
		return usagef("%s: only one of them can read standard input (-)", strings.Join(both, " and "))
	}
	return nil
}
