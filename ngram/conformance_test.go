package ngram

import (
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

// TestAccumulatorConformance runs the accumulator conformance suite on
// n-gram classifiers of SMS messages, with each smoothing: bit for bit,
// the statistics being counts.
func TestAccumulatorConformance(t *testing.T) {
	sms := bundled.Load(t, "sms_spam", dataio.Options{Text: []string{"text"}})
	idx := make([]int, 0, sms.N/10+1)
	for i := 0; i < sms.N; i += 10 {
		idx = append(idx, i)
	}
	sms = sms.Subset(idx)
	for _, c := range []Config{{Order: 2}, {Order: 3, Smoothing: Lidstone, Alpha: 0.5}, {Order: 2, Smoothing: WittenBell}, {Order: 2, MinCount: 2}} {
		t.Run(c.describe(), func(t *testing.T) {
			conformance.CheckAccumulator(t, func() (gendisc.Accumulator, error) { return NewAccumulator(c) }, sms,
				conformance.Refuses(func() (gendisc.Accumulator, error) { return NewAccumulator(Config{Order: 4}) }))
		})
	}
}
