package modelflags

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/internal/classprior"
)

// ClassPriors holds the class-prior flags of the kinds that estimate the
// class prior π_k (every naive Bayes kind, lda and qda): --prior-alpha and
// --class-prior.
type ClassPriors struct {
	alpha NonNegative
	fixed classPriorFlag
}

// PriorFlags defines --prior-alpha and --class-prior on fs and returns
// the values they hold once fs is parsed. Check refuses the two together
// and a fixed prior that does not sum to 1.
func PriorFlags(fs *flag.FlagSet) *ClassPriors {
	p := &ClassPriors{}
	fs.Var(&p.alpha, "prior-alpha", "smooth the class prior: π_k = (n_k + `α`)/(n + α·K); 0 is maximum likelihood")
	fs.Var((*classPriorCheck)(p), "class-prior", "fix the class prior, one `class=p` per class, comma-separated (a=0.3,b=0.7); not with --prior-alpha")
	return p
}

// Alpha is the pseudo-count α of --prior-alpha.
func (p *ClassPriors) Alpha() float64 { return float64(p.alpha) }

// Fixed is the class prior of --class-prior, class → probability; nil
// without it.
func (p *ClassPriors) Fixed() map[string]float64 { return p.fixed }

// classPriorCheck is the --class-prior flag; once the command line is
// parsed it checks the fixed prior with --prior-alpha (classprior.Check:
// they exclude each other, the priors sum to 1).
type classPriorCheck ClassPriors

func (f *classPriorCheck) String() string {
	if f == nil {
		return ""
	}
	return f.fixed.String()
}

func (f *classPriorCheck) Set(s string) error { return f.fixed.Set(s) }

func (f *classPriorCheck) checkFlag() error {
	if f.fixed != nil && f.alpha != 0 {
		return fmt.Errorf("not with --prior-alpha: a fixed class prior and a smoothed one exclude each other")
	}
	return classprior.Check(float64(f.alpha), f.fixed)
}

// classPriorFlag is a map flag: class=p,class=p,...
type classPriorFlag map[string]float64

func (f *classPriorFlag) String() string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(*f)) {
		parts = append(parts, c+"="+strconv.FormatFloat((*f)[c], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

func (f *classPriorFlag) Set(s string) error {
	if *f == nil {
		*f = classPriorFlag{}
	}
	for _, part := range strings.Split(s, ",") {
		i := strings.LastIndexByte(part, '=')
		if i <= 0 {
			return fmt.Errorf("%q: want class=probability", part)
		}
		p, err := strconv.ParseFloat(part[i+1:], 64)
		if err != nil {
			return fmt.Errorf("%q: want class=probability", part)
		}
		(*f)[part[:i]] = p
	}
	return nil
}
