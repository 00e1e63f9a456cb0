package hmm

import "github.com/gendisc/gendisc/registry"

// init registers the kind hmm with package registry.
func init() {
	registry.Register(registry.Kind{Name: Kind, Short: "first- or second-order hidden Markov model tagger (TnT), fitted by counting or Baum–Welch", Input: registry.Sequences, Flags: flags}, UnmarshalModel)
}
