package crf

import (
	"cmp"
	"slices"
)

// Weight is one weight of a model: a transition weight λ(From, To), or a
// state weight μ(Attribute, Label).
type Weight struct {
	From, To         string // a transition's labels
	Attribute, Label string // a state feature's attribute and label
	Value            float64
}

// TopTransitions returns the k transition weights λ(y′, y) of largest
// magnitude, largest first (ties in the order of the labels).
func (m *Model) TopTransitions(k int) []Weight {
	L := len(m.fs.labels)
	var ws []Weight
	for i, f := range m.fs.trans {
		if f >= 0 {
			ws = append(ws, Weight{From: m.fs.labels[i/L], To: m.fs.labels[i%L], Value: m.w[f]})
		}
	}
	return top(ws, k)
}

// TopStates returns the k state weights μ(a, label) of largest magnitude
// for label, largest first (ties in the order of the attributes); nil for
// a label the model does not know.
func (m *Model) TopStates(label string, k int) []Weight {
	y, ok := m.fs.labelID[label]
	if !ok {
		return nil
	}
	var ws []Weight
	for a, name := range m.fs.attrs {
		if f := m.fs.stateFeature(int32(a), y); f >= 0 {
			ws = append(ws, Weight{Attribute: name, Label: label, Value: m.w[f]})
		}
	}
	return top(ws, k)
}

// top returns the k weights of ws of largest magnitude, a stable sort
// keeping ties in their order.
func top(ws []Weight, k int) []Weight {
	slices.SortStableFunc(ws, func(a, b Weight) int { return cmp.Compare(abs(b.Value), abs(a.Value)) })
	return ws[:min(max(k, 0), len(ws))]
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
