// Package modelflags holds the command-line flag values that the model
// families and the commands share: numbers with bounds (NonNegative,
// Positive, Finite, AtLeast), choices (OneOf), lists (List), the class
// prior flags (PriorFlags), the flags of text columns (TextFlags) and of
// imputation (Impute), the flags of how training data is read (Data), and
// the help and version text of gendisc and gendisc-beam (PrintFlags,
// BuildVersion). It sits below the model families, which define each
// kind's flags with it in their flags.go (see package registry's Kind.Flags).
//
// Every invalid flag value is refused before any data is read: a value of
// one flag by its flag.Value's Set, and a value that is valid only with
// the others (a fixed class prior with --prior-alpha, the text flags as a
// whole) by Check, which a command calls once the command line is parsed.
// Both are misuses of the command line.
package modelflags

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/internal/enum"
)

// A checker is a flag value whose validity depends on other flags or on
// every repetition of the flag.
type checker interface {
	checkFlag() error
}

// Check checks the flags of fs whose validity depends on other flags, once
// they are parsed, and returns the first error, naming the flag:
//
//	--class-prior: the class priors sum to 0.6, not 1
func Check(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if c, ok := f.Value.(checker); ok && err == nil {
			if e := c.checkFlag(); e != nil {
				err = fmt.Errorf("--%s: %w", f.Name, e)
			}
		}
	})
	return err
}

// NonNegative is a float flag that refuses negative values, NaN and
// infinities.
type NonNegative float64

func (f *NonNegative) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *NonNegative) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 1) {
		return fmt.Errorf("want a finite number ≥ 0")
	}
	*f = NonNegative(v)
	return nil
}

// Finite is a float flag that refuses NaN and infinities.
type Finite float64

func (f *Finite) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *Finite) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("want a finite number")
	}
	*f = Finite(v)
	return nil
}

// intFlag is a whole-number flag that refuses values below min.
type intFlag[T ~int | ~int64] struct {
	p   *T
	min T
}

// AtLeast returns a flag.Value that sets *p to a whole number ≥ min.
func AtLeast[T ~int | ~int64](p *T, min T) flag.Value { return &intFlag[T]{p, min} }

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

// choiceFlag is a flag whose value is one of a list of names; the empty
// name, a setting's default, is not among them. Its errors are those of
// enum.Names: unknown solver "x" (want gd, sgd, newton or lbfgs).
type choiceFlag[T ~string] struct {
	p     *T
	names enum.Names[int]
}

// OneOf returns a flag.Value that sets *p to one of choices; what names
// a value in errors.
func OneOf[T ~string](p *T, what string, choices ...T) flag.Value {
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

// List is a comma-separated list flag; repeating the flag appends.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

func (l *List) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// Positive is a float flag that refuses values ≤ 0, NaN and infinities.
type Positive float64

func (f *Positive) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *Positive) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 1) {
		return fmt.Errorf("want a finite number > 0")
	}
	*f = Positive(v)
	return nil
}
