package crf

import (
	"math"
	"slices"
)

// features is the feature set of a model: the labels, the attributes and,
// for each attribute a, its state features, whose weights are
// w[start[a] : start[a+1]] for the labels label[start[a] : start[a+1]]
// (ascending); the transition weight λ(y′, y) is w[trans[y′·L + y]], or
// 0 when trans[y′·L + y] < 0 (a bigram that has no feature).
type features struct {
	labels    []string
	labelID   map[string]int32
	attrs     []string
	attrID    map[string]int32
	start     []int32 // len(attrs)+1
	label     []int32 // the label of each state feature
	trans     []int32 // L·L feature indices or −1
	nFeatures int     // state features, then transition features
}

// encoded is a set of sequences in the ids of a feature set: the items of
// sequence i are items[seqStart[i]:seqStart[i+1]], the attributes of item
// t are attr/val[itemStart[t]:itemStart[t+1]] (attributes the feature set
// does not know are left out), its label labels[t] (−1 when unknown or
// absent).
type encoded struct {
	seqStart  []int
	itemStart []int
	attr      []int32
	val       []float64
	labels    []int32
}

func (e *encoded) numSeqs() int { return len(e.seqStart) - 1 }

// maxLen returns the number of items of the longest sequence.
func (e *encoded) maxLen() int {
	n := 0
	for i := range e.numSeqs() {
		n = max(n, e.seqStart[i+1]-e.seqStart[i])
	}
	return n
}

// buildFeatures makes the feature set of the training sequences seqs
// (checked by checkTraining): labels and attributes in the order of their
// first occurrence, as CRFsuite numbers them, a state feature for each
// attribute–label pair that occurs (every pair with allStates) and a
// transition feature for each label bigram that occurs (every bigram with
// allTransitions). Attributes that occur in fewer than minFreq items get
// none: they are unknown to the model.
func buildFeatures(seqs []Sequence, allStates, allTransitions bool, minFreq int) *features {
	fs := &features{labelID: map[string]int32{}, attrID: map[string]int32{}}
	freq := map[string]int{}
	if minFreq > 1 {
		for _, s := range seqs {
			for _, item := range s.Items {
				for _, a := range item {
					freq[a.Name]++
				}
			}
		}
	}
	for _, s := range seqs {
		for t, item := range s.Items {
			fs.intern(&fs.labels, fs.labelID, s.Labels[t])
			for _, a := range item {
				if minFreq <= 1 || freq[a.Name] >= minFreq {
					fs.intern(&fs.attrs, fs.attrID, a.Name)
				}
			}
		}
	}
	L := len(fs.labels)
	pairs := make([][]int32, len(fs.attrs)) // the labels seen with each attribute
	seenTrans := make([]bool, L*L)
	for _, s := range seqs {
		prev := int32(-1)
		for t, item := range s.Items {
			y := fs.labelID[s.Labels[t]]
			for _, a := range item {
				id, ok := fs.attrID[a.Name]
				if !ok {
					continue
				}
				if !slices.Contains(pairs[id], y) {
					pairs[id] = append(pairs[id], y)
				}
			}
			if prev >= 0 {
				seenTrans[int(prev)*L+int(y)] = true
			}
			prev = y
		}
	}
	fs.start = make([]int32, len(fs.attrs)+1)
	for a := range fs.attrs {
		if allStates {
			for y := range int32(L) {
				fs.label = append(fs.label, y)
			}
		} else {
			slices.Sort(pairs[a])
			fs.label = append(fs.label, pairs[a]...)
		}
		fs.start[a+1] = int32(len(fs.label))
	}
	n := len(fs.label)
	fs.trans = make([]int32, L*L)
	for i, seen := range seenTrans {
		fs.trans[i] = -1
		if seen || allTransitions {
			fs.trans[i] = int32(n)
			n++
		}
	}
	fs.nFeatures = n
	return fs
}

func (fs *features) intern(names *[]string, ids map[string]int32, name string) {
	if _, ok := ids[name]; !ok {
		ids[name] = int32(len(*names))
		*names = append(*names, name)
	}
}

// encode returns seqs in the ids of fs.
func (fs *features) encode(seqs []Sequence) *encoded {
	e := &encoded{seqStart: []int{0}, itemStart: []int{0}}
	for _, s := range seqs {
		for t, item := range s.Items {
			for _, a := range item {
				if id, ok := fs.attrID[a.Name]; ok {
					e.attr = append(e.attr, id)
					e.val = append(e.val, a.Value)
				}
			}
			e.itemStart = append(e.itemStart, len(e.attr))
			y := int32(-1)
			if s.Labels != nil {
				if id, ok := fs.labelID[s.Labels[t]]; ok {
					y = id
				}
			}
			e.labels = append(e.labels, y)
		}
		e.seqStart = append(e.seqStart, len(e.labels))
	}
	return e
}

// observed returns the feature counts of the labelled sequences e,
// E_data: Σ v over the items labelled y with attribute (a, v) for μ(a, y),
// the number of bigrams (y′, y) for λ(y′, y).
func (fs *features) observed(e *encoded) []float64 {
	obs := make([]float64, fs.nFeatures)
	L := len(fs.labels)
	for i := range e.numSeqs() {
		for t := e.seqStart[i]; t < e.seqStart[i+1]; t++ {
			y := e.labels[t]
			for k := e.itemStart[t]; k < e.itemStart[t+1]; k++ {
				if f := fs.stateFeature(e.attr[k], y); f >= 0 {
					obs[f] += e.val[k]
				}
			}
			if t > e.seqStart[i] {
				if f := fs.trans[int(e.labels[t-1])*L+int(y)]; f >= 0 {
					obs[f]++
				}
			}
		}
	}
	return obs
}

// stateFeature returns the index of μ(a, y), or −1 when there is none.
func (fs *features) stateFeature(a, y int32) int {
	lo, hi := int(fs.start[a]), int(fs.start[a+1])
	if j, ok := slices.BinarySearch(fs.label[lo:hi], y); ok {
		return lo + j
	}
	return -1
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
