package linear

import (
	"fmt"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/internal/testsupport/conformance"
)

// TestAccumulatorConformance runs the accumulator conformance suite on
// linear regression of wine's alcohol, with a categorical feature whose
// levels the shards see in orders of their own, with weights and with
// missing cells: within 1e-12, the R factors merging by TSQR.
func TestAccumulatorConformance(t *testing.T) {
	for _, c := range []struct {
		cfg             Config
		weighted, holes bool
	}{{Config{}, false, false}, {Config{L2: 0.5}, true, false}, {Config{Impute: true}, false, true}} {
		t.Run(fmt.Sprintf("%+v/weighted=%v", c.cfg, c.weighted), func(t *testing.T) {
			conformance.CheckAccumulator(t, func() (gendisc.Accumulator, error) { return c.cfg.NewAccumulator() }, wineClass(t, c.weighted, c.holes),
				conformance.Tol(1e-12), conformance.Refuses(func() (gendisc.Accumulator, error) { return Config{L2: 3}.NewAccumulator() }))
		})
	}
}
