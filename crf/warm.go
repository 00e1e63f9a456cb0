package crf

// startWeights returns the weights a fit with the features fs starts
// from: zero, or with c.Start (a warm start) the weight in c.Start of
// every feature of fs that it has, matched by name: the state feature of
// the same attribute and label, the transition between the same labels.
// The features c.Start lacks (attributes or pairs that its training data
// did not have, or that --min-freq dropped there) start at 0.
func (c Config) startWeights(fs *features) []float64 {
	w := make([]float64, fs.nFeatures)
	m := c.Start
	if m == nil {
		return w
	}
	from := m.fs
	// label[y] is the index in from of fs's label y, or −1.
	label := make([]int32, len(fs.labels))
	for y, name := range fs.labels {
		label[y] = -1
		if id, ok := from.labelID[name]; ok {
			label[y] = id
		}
	}
	for a, name := range fs.attrs {
		fa, ok := from.attrID[name]
		if !ok {
			continue
		}
		for f := fs.start[a]; f < fs.start[a+1]; f++ {
			if fy := label[fs.label[f]]; fy >= 0 {
				if g := from.stateFeature(fa, fy); g >= 0 {
					w[f] = m.w[g]
				}
			}
		}
	}
	L, fromL := len(fs.labels), len(from.labels)
	for prev := range L {
		for y := range L {
			f := fs.trans[prev*L+y]
			if f < 0 || label[prev] < 0 || label[y] < 0 {
				continue
			}
			if g := from.trans[int(label[prev])*fromL+int(label[y])]; g >= 0 {
				w[f] = m.w[g]
			}
		}
	}
	return w
}
