package crf

import "fmt"

// Attribute is one attribute of an item, as CRFsuite's: a name and a value
// (1 for an indicator) that scales the weights of its state features.
type Attribute struct {
	Name  string
	Value float64
}

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
