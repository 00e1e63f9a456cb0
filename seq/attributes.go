package seq

// Attribute is one attribute of a token in sentences given as attributes
// rather than words (CRFsuite's data format): its name and its value, 1
// for an indicator, which scales the weights of its features.
type Attribute struct {
	Name  string
	Value float64
}

// Len returns the number of tokens of the sentence: of its words, or of
// its attributes when it is given as attributes.
func (s Sentence) Len() int {
	if s.Attributes != nil {
		return len(s.Attributes)
	}
	return len(s.Tokens)
}

// GivenAttributes reports whether the sentences of the corpus are given
// as the attributes of their tokens (CRFsuite's data format) rather than
// as words: those of a file are all one or all the other.
func (c *Corpus) GivenAttributes() bool {
	return len(c.Sentences) > 0 && c.Sentences[0].Attributes != nil
}
