package logistic

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/design"
	"github.com/gendisc/gendisc/text"
)

// configMismatch is the refusal to merge or solve with statistics
// gathered under another configuration (another λ, class weighting,
// standardisation, imputation or text settings): a *gendisc.MergeError.
func configMismatch(have, other Config) error {
	return &gendisc.MergeError{Package: "logistic", Kind: Kind, Other: Kind,
		Reason: fmt.Sprintf("other settings: %+v, not %+v", other.key(), have.key())}
}

// configKey is what of a Config the statistics of a pass depend on (not
// the solver's settings).
type configKey struct {
	Lambda        float64               `json:"l2"`
	ClassWeight   ClassWeight           `json:"class_weight,omitempty"`
	NoStandardize bool                  `json:"no_standardize,omitempty"`
	Impute        bool                  `json:"impute,omitempty"`
	Text          text.VectorizerConfig `json:"text"`
}

func (c *Config) key() configKey {
	return configKey{c.lambda(), c.ClassWeight, c.NoStandardize, c.Impute, c.Text}
}

// config returns the Config of a key: λ (NoPenalty when 0) and the
// settings of the statistics.
func (k configKey) config() Config {
	return Config{L2: k.Lambda, NoPenalty: k.Lambda == 0, ClassWeight: k.ClassWeight, NoStandardize: k.NoStandardize, Impute: k.Impute, Text: k.Text}
}

// SetupAccumulator is the first pass of a fit that a driver outside the
// process runs (Fit runs the same passes over all the rows at once): it
// gathers, over shards of the rows, the statistics the design matrix and
// the problem are set up from, which are those design.Fit computes (for
// each numeric feature the weighted mean and standard deviation, for each
// categorical feature the weight of each level, for each text feature its
// term counts) and the total sample weight of each class. Shards' setups
// merge (Merge) and travel between processes (MarshalBinary,
// UnmarshalBinary); Problem finishes them. Get one from Config.NewSetup;
// the zero value is only for UnmarshalBinary to fill.
type SetupAccumulator struct {
	cfg   Config
	setup *design.Setup
	tot   []float64 // per class of the setup's schema: Σ sample weight
}

// NewSetup returns an empty SetupAccumulator for c, or an error for bad
// configuration values.
func (c Config) NewSetup() (*SetupAccumulator, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &SetupAccumulator{cfg: c, setup: design.NewSetup(c.designOptions())}, nil
}

// Add adds the rows of d, whose features must be those of the rows added
// before; levels and classes may be new (data.Schema.Extend). It returns
// Fit's errors for the data (the target, missing cells, text columns,
// weights), except that a shard may have one class, or classes without
// rows: Problem checks the classes of all the rows.
func (a *SetupAccumulator) Add(d *data.Dataset) error {
	_, tot, err := targets(d)
	if err != nil {
		return err
	}
	if err := a.setup.Add(d); err != nil {
		return err
	}
	a.addClasses(d.Schema.Target.Levels, tot)
	return nil
}

// addClasses adds the weights tot of the classes named names to the
// totals of the setup's classes.
func (a *SetupAccumulator) addClasses(names []string, tot []float64) {
	t := a.setup.Schema().Target
	a.tot = append(a.tot, make([]float64, len(t.Levels)-len(a.tot))...)
	for c, w := range tot {
		a.tot[t.Level(names[c])] += w
	}
}

// Merge adds the statistics of o, a setup of the same configuration
// (else a *gendisc.MergeError) that saw other rows. o is unchanged.
func (a *SetupAccumulator) Merge(o *SetupAccumulator) error {
	if a.cfg.key() != o.cfg.key() {
		return configMismatch(a.cfg, o.cfg)
	}
	if o.setup.Schema() == nil {
		return nil
	}
	if err := a.setup.Merge(o.setup); err != nil {
		return fmt.Errorf("logistic: %w", err)
	}
	a.addClasses(o.setup.Schema().Target.Levels, o.tot)
	return nil
}

// setupHeader begins the binary form of a SetupAccumulator.
const setupHeader = "gendisc logistic setup 1\n"

type setupJSON struct {
	Config  configKey       `json:"config"`
	Classes []float64       `json:"classes"`
	Setup   json.RawMessage `json:"setup"`
}

// MarshalBinary encodes the setup, its configuration (what the
// statistics depend on: λ, class weights, standardisation, imputation,
// text settings) and schema included, as a header line and JSON whose
// floats read back bit for bit.
func (a *SetupAccumulator) MarshalBinary() ([]byte, error) {
	s, err := a.setup.MarshalJSON()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(setupJSON{Config: a.cfg.key(), Classes: a.tot, Setup: s})
	if err != nil {
		return nil, err
	}
	return append([]byte(setupHeader), b...), nil
}

// UnmarshalBinary replaces the setup by the one MarshalBinary encoded,
// checking it. Its configuration has the solver's settings at their
// defaults.
func (a *SetupAccumulator) UnmarshalBinary(b []byte) error {
	rest, ok := bytes.CutPrefix(b, []byte(setupHeader))
	if !ok {
		return fmt.Errorf("logistic: not the encoding of a logistic regression setup")
	}
	var j setupJSON
	if err := json.Unmarshal(rest, &j); err != nil {
		return fmt.Errorf("logistic: %w", err)
	}
	cfg := j.Config.config()
	if err := cfg.validate(); err != nil {
		return err
	}
	s, err := design.UnmarshalSetup(j.Setup)
	if err != nil {
		return fmt.Errorf("logistic: %w", err)
	}
	classes := 0
	if sc := s.Schema(); sc != nil {
		if sc.Target == nil || sc.Target.Kind != data.Categorical {
			return fmt.Errorf("logistic: the setup's schema needs a categorical target")
		}
		classes = len(sc.Target.Levels)
	}
	if len(j.Classes) != classes {
		return fmt.Errorf("logistic: %d class weights for %d classes", len(j.Classes), classes)
	}
	for _, w := range j.Classes {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("logistic: class weight %v", w)
		}
	}
	*a = SetupAccumulator{cfg: cfg, setup: s, tot: j.Classes}
	return nil
}

// Problem finishes the setup: the design matrix's encoder, the classes
// and their weights, λ. It returns an error when there are no rows, fewer
// than two classes, a class without weight, a column without an observed
// value or a text column without terms.
func (a *SetupAccumulator) Problem() (*Problem, error) {
	s := a.setup.Schema()
	if s == nil {
		return nil, fmt.Errorf("logistic: no rows")
	}
	if err := checkClasses("logistic", s.Target, a.tot); err != nil {
		return nil, err
	}
	enc, err := a.setup.Encoder()
	if err != nil {
		return nil, fmt.Errorf("logistic: %w", err)
	}
	k := len(a.tot)
	if k == 2 {
		k = 1
	}
	scale := classScale(a.tot, a.cfg.ClassWeight)
	vt := make([]float64, len(a.tot))
	for c, w := range a.tot {
		vt[c] = w * scale[c]
	}
	p := enc.P() + enc.V()
	return &Problem{cfg: a.cfg, schema: s, enc: enc, k: k, p: p, scale: scale, lambda: a.cfg.lambda(), start: startTheta(p, k, vt)}, nil
}

// Problem is a fit set up (SetupAccumulator.Problem): the design matrix
// z of the rows, the classes and their weights, and λ, so that a driver
// can evaluate, pass by pass over shards of the rows, the objective
// Fit minimises,
//
//	J(θ) = −Σ_i v_i log P(y_i | z_i; θ) + (λ/2) Σ_c ‖w_c‖²
//
// (the package's F = −J), with its gradient and Hessian, and build the
// model of the θ it finds. θ has Dim() entries: k weight vectors (k = 1
// for two classes, P(y = classes[1] | x) = σ(w_1ᵀz + b_1); k = K
// otherwise, the symmetric softmax), each the weights of the design
// columns (Terms) then the intercept. A Problem is immutable.
type Problem struct {
	cfg    Config
	schema *data.Schema
	enc    *design.Encoder
	k, p   int       // weight vectors; weights per vector
	scale  []float64 // class weight of each class
	lambda float64
	start  []float64
}

// Dim returns the number of parameters, k(P+1) for P design columns.
func (p *Problem) Dim() int { return p.k * (p.p + 1) }

// Schema returns the schema of the rows of the setup.
func (p *Problem) Schema() *data.Schema { return p.schema }

// Terms returns the names of the design columns, the order of the
// weights of each vector.
func (p *Problem) Terms() []string { return terms(p.enc) }

// Start returns the θ Fit starts from: zero weights and the intercepts of
// the model without features (log(W₁/W₀) for two classes, the centred
// log W_c otherwise), with W_c the weight of class c.
func (p *Problem) Start() []float64 { return slices.Clone(p.start) }

// NewPass returns an empty pass at θ, gathering the Hessian when hessian
// is set. It panics if θ does not have Dim() entries.
func (p *Problem) NewPass(theta []float64, hessian bool) *Pass {
	dim := p.Dim()
	if len(theta) != dim {
		panic(fmt.Sprintf("logistic: NewPass: θ has %d entries, the problem %d", len(theta), dim))
	}
	s := &Pass{prob: p, theta: slices.Clone(theta), grad: make([]float64, dim)}
	if hessian {
		s.hess = make([]float64, dim*dim)
	}
	return s
}

// Pass is the statistics of one pass over rows at a given θ: the
// weighted log-loss and its gradient, without the penalty,
//
//	L = −Σ_i v_i log P(y_i | z_i; θ),  ∇L = Σ_i v_i (p_i − e_{y_i}) ⊗ z̃_i,
//
// and, when asked, its Hessian Σ_i v_i (diag(p_i) − p_i p_iᵀ) ⊗ z̃_i z̃_iᵀ
// (binary: p_i(1 − p_i) z̃_i z̃_iᵀ), with the total row weight W = Σ_i v_i.
// Passes of shards of the rows at the same θ merge by adding (Merge),
// travel between processes (MarshalBinary, UnmarshalBinary), and
// Objective adds the penalty once.
type Pass struct {
	prob   *Problem
	theta  []float64
	rows   int
	wrong  int // rows of positive weight not strictly classified right
	weight float64
	loss   float64
	grad   []float64
	hess   []float64 // dim × dim, nil without the Hessian
}

// Theta returns the θ of the pass.
func (s *Pass) Theta() []float64 { return slices.Clone(s.theta) }

// Rows returns the number of rows added and merged.
func (s *Pass) Rows() int { return s.rows }

// Weight returns W = Σ_i v_i over the rows added and merged.
func (s *Pass) Weight() float64 { return s.weight }

// Add adds the rows of d, whose features and classes must be those of
// the setup's schema (in any order of levels, but no level or class the
// setup did not see). It returns an error for a missing target or, unless
// Impute is set, feature cell.
func (s *Pass) Add(d *data.Dataset) error {
	p := s.prob
	d, err := p.conform(d)
	if err != nil {
		return err
	}
	y, _, err := targets(d)
	if err != nil {
		return err
	}
	if err := design.CheckWeights(d); err != nil {
		return err
	}
	if !p.cfg.Impute {
		for i := range d.N {
			for j, v := range d.Row(i) {
				if v != v && d.Schema.Features[j].Kind != data.Text {
					return design.MissingCellError(d, i, j)
				}
			}
		}
	}
	v := make([]float64, d.N)
	for i := range v {
		v[i] = weight(d, i) * p.scale[y[i]]
	}
	z := p.enc.Encode(d)
	if s.hess != nil {
		z = z.Densify()
	}
	pr := newProblem(z.Dense, z.N, z.P, p.k, y, v, 0)
	if z.Sparse != nil {
		pr.setSparse(z.Sparse)
	}
	grad := make([]float64, len(s.grad))
	ev := pr.eval(s.theta, grad)
	floats.Add(s.grad, grad)
	s.loss += ev.nll
	s.wrong += ev.wrong
	s.weight += pr.wsum
	s.rows += d.N
	if s.hess != nil {
		h := make([]float64, len(s.hess))
		pr.hessian(s.theta, h)
		floats.Add(s.hess, h)
	}
	return nil
}

// conform returns d with its levels and classes numbered as in the
// problem's schema, or an error when it has others.
func (p *Problem) conform(d *data.Dataset) (*data.Dataset, error) {
	if d.Schema == p.schema {
		return d, nil
	}
	ext, remap, err := p.schema.Extend(d.Schema)
	if err != nil {
		return nil, fmt.Errorf("logistic: %s: %w", d.Source, err)
	}
	for j, f := range ext.Features {
		if len(f.Levels) != len(p.schema.Features[j].Levels) {
			return nil, fmt.Errorf("logistic: %s: feature %q has levels the setup did not see", d.Source, f.Name)
		}
	}
	if ext.Target != nil && len(ext.Target.Levels) != len(p.schema.Target.Levels) {
		return nil, fmt.Errorf("logistic: %s: classes the setup did not see", d.Source)
	}
	return remap.Apply(d, p.schema), nil
}

// Merge adds the statistics of o, a pass at the same θ (bit for bit)
// with or without the Hessian as s. o is unchanged.
func (s *Pass) Merge(o *Pass) error {
	switch {
	case len(o.theta) != len(s.theta) || !slices.Equal(o.theta, s.theta):
		return fmt.Errorf("logistic: cannot merge passes at different θ")
	case (o.hess == nil) != (s.hess == nil):
		return fmt.Errorf("logistic: cannot merge a pass with the Hessian and one without")
	}
	s.rows += o.rows
	s.wrong += o.wrong
	s.weight += o.weight
	s.loss += o.loss
	floats.Add(s.grad, o.grad)
	if s.hess != nil {
		floats.Add(s.hess, o.hess)
	}
	return nil
}

// Objective returns J(θ) = L + (λ/2) Σ_c ‖w_c‖², its gradient ∇L + λ w
// and, for a pass with the Hessian, its Hessian ∇²L + λ I_w (I_w the
// identity on the weights, zero on the intercepts), dim × dim row major;
// new slices.
func (s *Pass) Objective() (j float64, grad, hess []float64) {
	p := s.prob
	grad = slices.Clone(s.grad)
	hess = slices.Clone(s.hess)
	dim, q := p.Dim(), p.p+1
	j = s.loss
	for c := range p.k {
		w := s.theta[c*q : c*q+p.p]
		j += p.lambda / 2 * floats.Dot(w, w)
		floats.AddScaled(grad[c*q:c*q+p.p], p.lambda, w)
		for u := c * q; hess != nil && u < c*q+p.p; u++ {
			hess[u*dim+u] += p.lambda
		}
	}
	return j, grad, hess
}

// Model returns the model of the pass's θ, with the objective F = −J,
// the log-likelihood −L and the gradient norm max_j |∂J/∂θ_j| / W of the
// pass in its Diagnostics (the solver, the counts and Converged are the
// driver's to know, and left zero).
func (s *Pass) Model() (*Model, error) {
	p := s.prob
	j, g, _ := s.Objective()
	m := &Model{schema: p.schema, enc: p.enc, k: p.k, theta: slices.Clone(s.theta), lambda: p.lambda, impute: p.cfg.Impute,
		classWeight: p.cfg.ClassWeight, classWeightKnown: true,
		diag: Diagnostics{Objective: -j, LogLikelihood: -s.loss, GradNorm: maxAbs(g) / s.weight}}
	if err := m.checkFinite(); err != nil {
		return nil, err
	}
	return m, nil
}

// passHeader begins the binary form of a Pass.
const passHeader = "gendisc logistic pass 2\n"

// MarshalBinary encodes the pass: a header line, then little-endian the
// number of parameters, whether the Hessian follows, the rows, the rows
// misclassified, and the float64s W, L, θ, ∇L and ∇²L, bit for bit.
func (s *Pass) MarshalBinary() ([]byte, error) {
	b := []byte(passHeader)
	hess := uint64(0)
	if s.hess != nil {
		hess = 1
	}
	for _, u := range []uint64{uint64(len(s.theta)), hess, uint64(s.rows), uint64(s.wrong)} {
		b = binary.LittleEndian.AppendUint64(b, u)
	}
	for _, x := range slices.Concat([]float64{s.weight, s.loss}, s.theta, s.grad, s.hess) {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b, nil
}

// UnmarshalBinary replaces the pass by the one MarshalBinary encoded. s
// must come from NewPass of the problem the encoded pass was made for
// (its θ is replaced; UnmarshalBinary panics for a zero Pass); the number
// of parameters must be that problem's.
func (s *Pass) UnmarshalBinary(b []byte) error {
	rest, ok := bytes.CutPrefix(b, []byte(passHeader))
	if !ok || len(rest) < 32 {
		return fmt.Errorf("logistic: not the encoding of a logistic regression pass")
	}
	dim, hess, rows := binary.LittleEndian.Uint64(rest), binary.LittleEndian.Uint64(rest[8:]), binary.LittleEndian.Uint64(rest[16:])
	wrong := binary.LittleEndian.Uint64(rest[24:])
	switch {
	case s.prob == nil:
		panic("logistic: Pass.UnmarshalBinary: a pass not made by Problem.NewPass")
	case dim != uint64(s.prob.Dim()):
		return fmt.Errorf("logistic: a pass of %d parameters, not of this problem's %d", dim, s.prob.Dim())
	case hess > 1 || rows > math.MaxInt || wrong > rows:
		return fmt.Errorf("logistic: not the encoding of a logistic regression pass")
	}
	n := int(2 + 2*dim + hess*dim*dim)
	rest = rest[32:]
	if len(rest) != 8*n {
		return fmt.Errorf("logistic: a pass of %d bytes, want %d", len(rest), 8*n)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(rest[8*i:]))
	}
	d := int(dim)
	s.rows, s.wrong, s.weight, s.loss = int(rows), int(wrong), x[0], x[1]
	s.theta, s.grad, s.hess = x[2:2+d], x[2+d:2+2*d], nil
	if hess == 1 {
		s.hess = x[2+2*d:]
	}
	return nil
}
