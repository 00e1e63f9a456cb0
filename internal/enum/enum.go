// Package enum gives the integer enumerations of gendisc's settings
// (column kinds, naive Bayes families, covariance types, …) their names:
// String, parsing and the text form that JSON model files use, from one
// list of names per type.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Names are the names of the values 0, 1, …, len(List)−1 of an
// enumeration type T, and how errors speak of it.
type Names[T ~int] struct {
	// Type is the Go type's name, for the String of a value outside the
	// list: "Family(7)".
	Type string
	// What a value is, in errors: "naive Bayes kind".
	What string
	// Prefix starts error messages ("naivebayes: "), or is empty.
	Prefix string
	// List holds the name of each value, in order.
	List []string
}

// Valid reports whether v has a name.
func (n *Names[T]) Valid(v T) bool { return v >= 0 && int(v) < len(n.List) }

// String returns v's name, or Type(v) for a value outside the list.
func (n *Names[T]) String(v T) string {
	if !n.Valid(v) {
		return fmt.Sprintf("%s(%d)", n.Type, int(v))
	}
	return n.List[v]
}

// Parse returns the value named s, or an error that lists the names:
//
//	naivebayes: unknown variance tying "x" (want class-feature, feature, class or shared)
func (n *Names[T]) Parse(s string) (T, error) {
	i := slices.Index(n.List, s)
	if i < 0 {
		return 0, fmt.Errorf("%sunknown %s %q (want %s)", n.Prefix, n.What, s, n.choices())
	}
	return T(i), nil
}

// MarshalText returns v's name, or an error for a value outside the list.
func (n *Names[T]) MarshalText(v T) ([]byte, error) {
	if !n.Valid(v) {
		return nil, fmt.Errorf("%sunknown %s %d", n.Prefix, n.What, int(v))
	}
	return []byte(n.List[v]), nil
}

// UnmarshalText sets *v to the value named b (see Parse).
func (n *Names[T]) UnmarshalText(v *T, b []byte) error {
	t, err := n.Parse(string(b))
	if err != nil {
		return err
	}
	*v = t
	return nil
}

// choices is "a", "a or b", "a, b or c", …
func (n *Names[T]) choices() string {
	if len(n.List) < 2 {
		return strings.Join(n.List, "")
	}
	return strings.Join(n.List[:len(n.List)-1], ", ") + " or " + n.List[len(n.List)-1]
}
