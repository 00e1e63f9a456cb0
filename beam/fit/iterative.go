package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
)

// The iterative kinds. A fit of one is a driver, in this process, that
// runs one pipeline per pass over the shards: each pipeline combines the
// statistics of every shard under the driver's current parameters
// (PassFn), which travel to the workers in the CombineFn's fields, and
// the driver reads the merged statistics back, as the one-pass fits read
// their model file.
//
//   - Logistic regression: a setup pass (logistic.SetupAccumulator:
//     standardisation, levels, vocabularies, classes), then one pass per
//     evaluation of the objective at θ (logistic.Pass: the loss, its
//     gradient and, for Newton, its Hessian), the evaluations asked for
//     by the solver of gendisc fit (logistic.Config.Solve).
//   - Gaussian mixtures: a pass that draws a sample of the rows
//     (SampleFn), the starting points of gendisc fit's initialisation on
//     it (mixture.Config.Starts), then one pass per EM iteration
//     (mixture.EStats), driven by gendisc fit's EM loop
//     (mixture.Config.FitEStep).

// IterativeKinds returns the names of the kinds FitLogistic and
// FitMixture fit, sorted.
func IterativeKinds() []string { return []string{mixture.Kind, logistic.Kind} }

func init() {
	register.Combiner3[[]byte, fileio.ReadableFile, []byte](&PassFn{})
	register.Combiner3[[]byte, fileio.ReadableFile, []byte](&SampleFn{})
}

// The stages of PassFn.
const (
	stageSetup = "logistic-setup" // Config: an empty logistic.SetupAccumulator's encoding
	stagePass  = "logistic-pass"  // Config: the JSON of a passConfig
	stageEStep = "mixture-estep"  // Config: the JSON of an estepConfig
)

// passConfig is what the workers of a logistic pass need: the merged
// setup, θ and whether to gather the Hessian.
type passConfig struct {
	Setup   []byte    `json:"setup"`
	Theta   []float64 `json:"theta"` // JSON reads float64s back bit for bit
	Hessian bool      `json:"hessian"`
}

// estepConfig is what the workers of an E-step need: the settings of
// mixture.Config.EStep and the parameters.
type estepConfig struct {
	Components     int                    `json:"components"`
	Covariance     mixture.Covariance     `json:"covariance"`
	RegCovar       float64                `json:"reg_covar"`
	Regularization mixture.Regularization `json:"regularization"`
	Params         mixture.Params         `json:"params"`
}

func (c *estepConfig) config() mixture.Config {
	return mixture.Config{Components: c.Components, Covariance: c.Covariance, RegCovar: c.RegCovar, Regularization: c.Regularization}
}

// PassFn is the CombineFn of one pass of an iterative fit: its input a
// file, read whole with dataio.ReadWithSchema and the Schema (JSON), the
// Weight column and the Comma (Extend admits classes and levels that the
// schema lacks); its accumulator the MarshalBinary encoding of the
// statistics of the Stage under the stage's Config, nil before any row;
// its output the merged statistics' encoding.
type PassFn struct {
	Stage  string
	Config []byte
	Schema []byte
	Weight string
	Comma  rune
	Extend bool

	once    sync.Once
	schema  *data.Schema
	problem *logistic.Problem // stagePass
	pass    passConfig        // stagePass
	estep   estepConfig       // stageEStep
	err     error
}

// setup decodes the fields, once per instance.
func (fn *PassFn) setup() error {
	fn.once.Do(func() {
		fn.schema = new(data.Schema)
		if fn.err = json.Unmarshal(fn.Schema, fn.schema); fn.err != nil {
			return
		}
		switch fn.Stage {
		case stageSetup:
		case stagePass:
			if fn.err = json.Unmarshal(fn.Config, &fn.pass); fn.err != nil {
				return
			}
			var s logistic.SetupAccumulator
			if fn.err = s.UnmarshalBinary(fn.pass.Setup); fn.err != nil {
				return
			}
			fn.problem, fn.err = s.Problem()
		case stageEStep:
			fn.err = json.Unmarshal(fn.Config, &fn.estep)
		default:
			fn.err = fmt.Errorf("fit: unknown stage %q", fn.Stage)
		}
	})
	return fn.err
}

// stats are the statistics of a stage.
type stats interface {
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

// empty returns statistics of the stage to decode an encoding into, or
// to add rows to (but for stageEStep, whose statistics come from
// mixture.Config.EStep).
func (fn *PassFn) empty() (stats, error) {
	switch fn.Stage {
	case stageSetup:
		var s logistic.SetupAccumulator
		return &s, s.UnmarshalBinary(fn.Config)
	case stagePass:
		return fn.problem.NewPass(fn.pass.Theta, fn.pass.Hessian), nil
	}
	return new(mixture.EStats), nil
}

// decode returns the statistics b encodes.
func (fn *PassFn) decode(b []byte) (stats, error) {
	s, err := fn.empty()
	if err != nil {
		return nil, err
	}
	return s, s.UnmarshalBinary(b)
}

// merge adds o to s, statistics of the stage.
func merge(s, o stats) error {
	switch s := s.(type) {
	case *logistic.SetupAccumulator:
		return s.Merge(o.(*logistic.SetupAccumulator))
	case *logistic.Pass:
		return s.Merge(o.(*logistic.Pass))
	case *mixture.EStats:
		return s.Merge(o.(*mixture.EStats))
	}
	panic(fmt.Sprintf("fit: statistics of type %T", s))
}

func (fn *PassFn) CreateAccumulator() []byte { return nil }

func (fn *PassFn) AddInput(acc []byte, f fileio.ReadableFile) ([]byte, error) {
	if err := fn.setup(); err != nil {
		return nil, err
	}
	d, err := readWithSchema(f, fn.schema, dataio.SchemaOptions{Weight: fn.Weight, Comma: fn.Comma, Extend: fn.Extend, RequireTarget: true})
	if err != nil {
		return nil, err
	}
	var s stats
	switch fn.Stage {
	case stageSetup, stagePass:
		// The rows without a target are left out as gendisc fit leaves
		// them out; a worker has no standard error to count them on.
		d, _ = gendisc.Labelled(d)
	}
	switch fn.Stage {
	case stageEStep:
		if s, err = fn.estep.config().EStep(d, fn.estep.Params); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Metadata.Path, err)
		}
	default:
		if s, err = fn.empty(); err != nil {
			return nil, err
		}
		var add error
		switch s := s.(type) {
		case *logistic.SetupAccumulator:
			add = s.Add(d)
		case *logistic.Pass:
			add = s.Add(d)
		}
		if add != nil {
			return nil, add
		}
	}
	b, err := s.MarshalBinary()
	if err != nil || acc == nil {
		return b, err
	}
	return fn.MergeAccumulators(acc, b)
}

func (fn *PassFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	switch {
	case a == nil:
		return b, nil
	case b == nil:
		return a, nil
	}
	if err := fn.setup(); err != nil {
		return nil, err
	}
	x, err := fn.decode(a)
	if err != nil {
		return nil, err
	}
	y, err := fn.decode(b)
	if err != nil {
		return nil, err
	}
	if err := merge(x, y); err != nil {
		return nil, err
	}
	return x.MarshalBinary()
}

func (fn *PassFn) ExtractOutput(acc []byte) ([]byte, error) {
	if acc == nil {
		return nil, fmt.Errorf("fit: no rows")
	}
	return acc, nil
}

// readWithSchema reads the file f whole with dataio.ReadWithSchema.
func readWithSchema(f fileio.ReadableFile, s *data.Schema, opt dataio.SchemaOptions) (*data.Dataset, error) {
	return readShard(f, func(r io.Reader) (*data.Dataset, error) { return dataio.ReadWithSchema(r, f.Metadata.Path, s, opt) })
}

// combine runs the pipeline of one pass, fn over the files that glob
// matches, and returns its output, written to temp and read back.
func combine(ctx context.Context, run Runner, glob string, fn any, temp string) ([]byte, error) {
	p, s := beam.NewPipelineWithRoot()
	out := beam.Combine(s, fn, readMatches(s, glob))
	beam.ParDo0(s, &WriteFn{Path: temp}, out)
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	b, err := readFile(ctx, temp)
	removeFile(ctx, temp)
	return b, err
}

// FitLogistic fits logistic regression with cfg on the files that glob
// matches, as gendisc fit does on their concatenation, and writes the
// model file to out, on any Beam filesystem: the schema pass (unless
// opt.Schema is set), the setup pass, then a pass per evaluation of the
// objective that cfg's solver (Newton or L-BFGS: see logistic.Config.Solve)
// asks for, each a pipeline run by run. Every pipeline writes its output
// to opt.Temp, which the driver reads and removes.
func FitLogistic(ctx context.Context, run Runner, glob string, cfg logistic.Config, out string, opt Options) (*logistic.Model, error) {
	setup, err := cfg.NewSetup()
	if err != nil {
		return nil, err
	}
	empty, err := setup.MarshalBinary()
	if err != nil {
		return nil, err
	}
	sj, extend, err := schemaFor(ctx, run, glob, opt)
	if err != nil {
		return nil, err
	}
	base := PassFn{Schema: sj, Weight: opt.Read.Weight, Comma: opt.Read.Comma, Extend: extend}
	fn := base.with(stageSetup, empty)
	merged, err := combine(ctx, run, glob, fn, opt.Temp)
	if err != nil {
		return nil, err
	}
	if err := setup.UnmarshalBinary(merged); err != nil {
		return nil, err
	}
	p, err := setup.Problem()
	if err != nil {
		return nil, err
	}
	m, err := cfg.Solve(p, func(theta []float64, hessian bool) (*logistic.Pass, error) {
		c, err := json.Marshal(passConfig{Setup: merged, Theta: theta, Hessian: hessian})
		if err != nil {
			return nil, err
		}
		b, err := combine(ctx, run, glob, base.with(stagePass, c), opt.Temp)
		if err != nil {
			return nil, err
		}
		s := p.NewPass(theta, hessian)
		return s, s.UnmarshalBinary(b)
	})
	if err != nil {
		return nil, err
	}
	return m, writeModel(ctx, out, m)
}

// with returns a copy of the fields of fn for the stage and its Config.
func (fn *PassFn) with(stage string, config []byte) *PassFn {
	return &PassFn{Stage: stage, Config: config, Schema: fn.Schema, Weight: fn.Weight, Comma: fn.Comma, Extend: fn.Extend}
}

// writeModel writes the model file of m to path, on a Beam filesystem.
func writeModel(ctx context.Context, path string, m modelfile.Persistent) error {
	var b bytes.Buffer
	if err := modelfile.Write(&b, m); err != nil {
		return err
	}
	return writeFile(ctx, path, b.Bytes())
}

// MixtureOptions are the settings of FitMixture besides the mixture's.
type MixtureOptions struct {
	// Seed seeds the sample (with the rows' values, so that the sample
	// does not depend on how the rows are spread over files) and the
	// draws of the starting points, as gendisc fit's --seed.
	Seed uint64
	// Sample is the number of rows drawn for the initialisation. When
	// the data have no more rows, the sample is all of them and the
	// starting points are those of gendisc fit.
	Sample int
}

// FitMixture fits a Gaussian mixture with cfg on the files that glob
// matches, as gendisc fit does on their concatenation, and writes the
// model file to out, on any Beam filesystem: the schema pass (unless
// opt.Schema is set), a pass that draws a sample of at most mo.Sample
// rows, the initialisation of gendisc fit on it (mixture.Config.Starts,
// with rand.NewPCG(mo.Seed, 0)), then per restart a pass per EM
// iteration and one for the final log-likelihood (mixture.Config.FitEStep:
// the same stopping rules, the log-likelihood of every iteration in the
// model's trace, cfg.OnIter called after each pass). With the floor
// regularisation (the default), a log-likelihood that falls by more than
// 1e-9 relative between iterations is an error: EM never lowers it, so
// the shards changed during the fit.
func FitMixture(ctx context.Context, run Runner, glob string, cfg mixture.Config, mo MixtureOptions, out string, opt Options) (*mixture.GMM, error) {
	sj, extend, err := schemaFor(ctx, run, glob, opt)
	if err != nil {
		return nil, err
	}
	var schema data.Schema
	if err := json.Unmarshal(sj, &schema); err != nil {
		return nil, err
	}
	base := PassFn{Schema: sj, Weight: opt.Read.Weight, Comma: opt.Read.Comma, Extend: extend}
	b, err := combine(ctx, run, glob, &SampleFn{Size: mo.Sample, Seed: mo.Seed, Schema: sj, Weight: opt.Read.Weight, Comma: opt.Read.Comma, Extend: extend}, opt.Temp)
	if err != nil {
		return nil, err
	}
	smp, err := decodeSample(b)
	if err != nil {
		return nil, err
	}
	d := smp.dataset(&schema, opt.Read.Weight != "", "the sample of "+glob)
	starts, err := cfg.Starts(d, rand.New(rand.NewPCG(mo.Seed, 0)))
	if err != nil {
		return nil, err
	}
	g, err := cfg.FitEStep(&schema, starts, func(p mixture.Params) (*mixture.EStats, error) {
		c, err := json.Marshal(estepConfig{Components: cfg.Components, Covariance: cfg.Covariance, RegCovar: cfg.RegCovar, Regularization: cfg.Regularization, Params: p})
		if err != nil {
			return nil, err
		}
		b, err := combine(ctx, run, glob, base.with(stageEStep, c), opt.Temp)
		if err != nil {
			return nil, err
		}
		var e mixture.EStats
		return &e, e.UnmarshalBinary(b)
	})
	if err != nil {
		return nil, err
	}
	if cfg.Regularization == mixture.Floor {
		tr := g.LogLikelihoodTrace()
		for i := 1; i < len(tr); i++ {
			if tr[i] < tr[i-1]-1e-9*math.Abs(tr[i-1]) {
				return nil, fmt.Errorf("fit: the log-likelihood fell from %.17g to %.17g at iteration %d: EM never lowers it, so the data changed during the fit", tr[i-1], tr[i], i+1)
			}
		}
	}
	return g, writeModel(ctx, out, g)
}
