package linear

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/gendisc/gendisc/data"
)

// header begins the binary form of an Accumulator.
const header = "gendisc linear accumulator 1\n"

// stateJSON is the encoded form of an Accumulator: in MarshalBinary
// (after header, with the schema) and in a model file (without: the file
// has it). Floats read back bit for bit.
type stateJSON struct {
	Config  configJSON   `json:"config"`
	Schema  *data.Schema `json:"schema,omitempty"`
	Rows    int          `json:"rows"`
	Columns []columnJSON `json:"columns"`
	// R is the upper triangle of R, row by row.
	R []float64 `json:"r"`
}

type configJSON struct {
	L2            float64 `json:"l2"`
	NoStandardize bool    `json:"no_standardize,omitempty"`
	Impute        bool    `json:"impute,omitempty"`
}

// columnJSON is a column of R: its role ("intercept", "target", "value",
// "level", "missing"), the feature and level by name, and the shift.
type columnJSON struct {
	Role    string  `json:"role"`
	Feature string  `json:"feature,omitempty"`
	Level   string  `json:"level,omitempty"`
	Shift   float64 `json:"shift,omitempty"`
}

var roleNames = []string{"intercept", "target", "value", "level", "missing"}

// state returns the encoded form of a; the schema is left out.
func (a *Accumulator) state() stateJSON {
	st := stateJSON{Config: configJSON{a.cfg.L2, a.cfg.NoStandardize, a.cfg.Impute}, Rows: a.rows,
		Columns: make([]columnJSON, len(a.cols)), R: make([]float64, 0, len(a.cols)*(len(a.cols)+1)/2)}
	for k, c := range a.cols {
		cj := columnJSON{Role: roleNames[c.role], Shift: c.shift}
		if c.role >= roleValue {
			f := &a.schema.Features[c.feature]
			cj.Feature = f.Name
			if c.role == roleLevel {
				cj.Level = f.Levels[c.level]
			}
		}
		st.Columns[k] = cj
	}
	ns := len(a.cols)
	for i := range ns {
		st.R = append(st.R, a.r[i*ns+i:(i+1)*ns]...)
	}
	return st
}

// fromState rebuilds an accumulator from its encoded form for schema s
// (nil for one without rows), checking it: a valid configuration, a
// numeric target and no text feature, the intercept's and the target's
// columns first, then columns that name features and levels of s, one of
// each, with a column for every numeric feature and level (missing
// cells' columns only with Impute), finite numbers and the triangle of
// the right size.
func fromState(s *data.Schema, st *stateJSON) (*Accumulator, error) {
	a := &Accumulator{cfg: Config{L2: st.Config.L2, NoStandardize: st.Config.NoStandardize, Impute: st.Config.Impute}, rows: st.Rows}
	if err := a.cfg.validate(); err != nil {
		return nil, err
	}
	if s == nil {
		if st.Rows != 0 || len(st.Columns) != 0 || len(st.R) != 0 {
			return nil, fmt.Errorf("linear: statistics of %d rows without a schema", st.Rows)
		}
		return a, nil
	}
	if s.Target == nil || s.Target.Kind != data.Numeric {
		return nil, fmt.Errorf("linear: the schema needs a numeric target")
	}
	a.schema = s
	if st.Rows < 0 {
		return nil, fmt.Errorf("linear: %d rows", st.Rows)
	}
	for k, cj := range st.Columns {
		c := column{role: role(len(roleNames))}
		for r, name := range roleNames {
			if cj.Role == name {
				c.role = role(r)
			}
		}
		switch {
		case c.role == role(len(roleNames)):
			return nil, fmt.Errorf("linear: column %d: unknown role %q", k, cj.Role)
		case (k == 0) != (c.role == roleIntercept), (k == 1) != (c.role == roleTarget):
			return nil, fmt.Errorf("linear: column %d: %s, want the intercept's and the target's columns first", k, cj.Role)
		case math.IsNaN(cj.Shift) || math.IsInf(cj.Shift, 0):
			return nil, fmt.Errorf("linear: column %d: shift %v", k, cj.Shift)
		}
		if c.role >= roleValue {
			if c.feature = s.Feature(cj.Feature); c.feature < 0 {
				return nil, fmt.Errorf("linear: column %d: no feature %q in the schema", k, cj.Feature)
			}
			f := &s.Features[c.feature]
			switch {
			case f.Kind == data.Text:
				return nil, fmt.Errorf("linear: column %d: feature %q is text", k, f.Name)
			case c.role == roleValue && f.Kind != data.Numeric, c.role == roleLevel && f.Kind != data.Categorical:
				return nil, fmt.Errorf("linear: column %d: %s column of %s feature %q", k, cj.Role, f.Kind, f.Name)
			case c.role == roleMissing && !a.cfg.Impute:
				return nil, fmt.Errorf("linear: column %d: missing cells of %q without imputation", k, f.Name)
			case c.role == roleLevel:
				if c.level = f.Level(cj.Level); c.level < 0 {
					return nil, fmt.Errorf("linear: column %d: feature %q has no level %q", k, f.Name, cj.Level)
				}
			}
		}
		if c.role != roleValue && c.role != roleTarget && cj.Shift != 0 {
			return nil, fmt.Errorf("linear: column %d: %s column with a shift", k, cj.Role)
		}
		c.shift = cj.Shift
		if a.find(c.role, c.feature, c.level) >= 0 {
			return nil, fmt.Errorf("linear: column %d: a second %s column for %q", k, cj.Role, cj.Feature)
		}
		a.cols = append(a.cols, c)
	}
	if len(a.cols) < 2 {
		return nil, fmt.Errorf("linear: %d columns", len(a.cols))
	}
	for j, f := range s.Features {
		switch {
		case f.Kind == data.Text:
			return nil, fmt.Errorf("linear: feature %q is text", f.Name)
		case f.Kind == data.Numeric && a.find(roleValue, j, 0) < 0:
			return nil, fmt.Errorf("linear: no column for feature %q", f.Name)
		}
		for l := range f.Levels {
			if f.Kind == data.Categorical && a.find(roleLevel, j, l) < 0 {
				return nil, fmt.Errorf("linear: no column for level %q of feature %q", f.Levels[l], f.Name)
			}
		}
	}
	ns := len(a.cols)
	if len(st.R) != ns*(ns+1)/2 {
		return nil, fmt.Errorf("linear: %d entries of R for %d columns", len(st.R), ns)
	}
	a.r = make([]float64, ns*ns)
	at := 0
	for i := range ns {
		at += copy(a.r[i*ns+i:(i+1)*ns], st.R[at:])
	}
	for _, v := range st.R {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("linear: non-finite entry of R")
		}
	}
	return a, nil
}

// MarshalBinary encodes the accumulator, its configuration and schema
// included: a header line, then JSON whose floats read back bit for bit.
func (a *Accumulator) MarshalBinary() ([]byte, error) {
	if a.err != nil {
		return nil, a.err
	}
	st := a.state()
	st.Schema = a.schema
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("linear: %w", err)
	}
	return append([]byte(header), b...), nil
}

// UnmarshalBinary replaces the accumulator by the one MarshalBinary
// encoded, checking it.
func (a *Accumulator) UnmarshalBinary(b []byte) error {
	rest, ok := bytes.CutPrefix(b, []byte(header))
	if !ok {
		return fmt.Errorf("linear: not the encoding of a linear regression accumulator")
	}
	var st stateJSON
	if err := json.Unmarshal(rest, &st); err != nil {
		return fmt.Errorf("linear: %w", err)
	}
	dec, err := fromState(st.Schema, &st)
	if err != nil {
		return err
	}
	*a = *dec
	return nil
}
