package crf

import (
	"fmt"

	"github.com/gendisc/gendisc/seq"
)

// Attribute is one attribute of an item, as CRFsuite's: a name and a value
// (1 for an indicator) that scales the weights of its state features. It
// is seq.Attribute, so that sentences given as attributes (read from
// CRFsuite's data format by package seqio) are items without a copy of
// their attributes.
type Attribute = seq.Attribute

// Item is one position of a sequence: its attributes.
type Item []Attribute

// Sequence is a sequence of items with one label per item (Labels is nil
// for a sequence to be tagged).
type Sequence struct {
	Items  []Item
	Labels []string
}

// checkTraining returns an error naming the first sequence of seqs (from
// 1) that is empty or whose labels do not match its items one to one.
func checkTraining(seqs []Sequence) error {
	if len(seqs) == 0 {
		return fmt.Errorf("no sequences to train on")
	}
	for i, s := range seqs {
		if len(s.Items) == 0 {
			return fmt.Errorf("sequence %d: no items", i+1)
		}
		if len(s.Labels) != len(s.Items) {
			return fmt.Errorf("sequence %d: %d labels for %d items", i+1, len(s.Labels), len(s.Items))
		}
		for t, item := range s.Items {
			for _, a := range item {
				if !isFinite(a.Value) {
					return fmt.Errorf("sequence %d, item %d: attribute %q has the value %v", i+1, t+1, a.Name, a.Value)
				}
			}
		}
	}
	return nil
}

// itemsOf returns the attributes of the tokens of a sentence as items.
func itemsOf(attrs [][]seq.Attribute) []Item {
	items := make([]Item, len(attrs))
	for t, a := range attrs {
		items[t] = a
	}
	return items
}
