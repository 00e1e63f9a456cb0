package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
)

// gmmReport is what inspect shows of a Gaussian mixture: per component
// the weight, mean and covariance (full D×D, whatever the type), the
// log-likelihood of every EM iteration, BIC and AIC.
type gmmReport struct {
	Covariance    string              `json:"covariance"`
	Features      []string            `json:"features"`
	Weights       modelfile.Floats    `json:"weights"`
	Means         []modelfile.Floats  `json:"means"`
	Covariances   []modelfile.Floats  `json:"covariances"`
	LogLikelihood modelfile.Float     `json:"log_likelihood"`
	Rows          modelfile.Float     `json:"rows"`
	Parameters    int                 `json:"parameters"`
	BIC           modelfile.Float     `json:"bic"`
	AIC           modelfile.Float     `json:"aic"`
	Iterations    int                 `json:"iterations"`
	Converged     bool                `json:"converged"`
	Trace         modelfile.Floats    `json:"log_likelihood_trace"`
	Restarts      modelfile.Floats    `json:"restart_log_likelihoods"`
	Warnings      []string            `json:"warnings,omitempty"`
	Candidates    []mixture.Candidate `json:"candidates,omitempty"`
	title         string
}

func newGMMReport(g *mixture.GMM) *gmmReport {
	k, d := g.Components(), g.Dim()
	r := &gmmReport{Covariance: g.CovarianceType().String(), Weights: g.Weights(),
		LogLikelihood: modelfile.Float(g.LogLikelihood()), Rows: modelfile.Float(g.NumRows()),
		Parameters: g.NumParams(), BIC: modelfile.Float(g.BIC()), AIC: modelfile.Float(g.AIC()),
		Iterations: g.Iterations(), Converged: g.Converged(), Trace: g.LogLikelihoodTrace(),
		Restarts: g.RestartLogLikelihoods(), Warnings: g.Warnings(), Candidates: g.Candidates()}
	for _, c := range g.Schema().Features {
		r.Features = append(r.Features, c.Name)
	}
	mu, sig := g.Means(), g.Covariances()
	for c := range k {
		r.Means = append(r.Means, mu[c*d:(c+1)*d])
		r.Covariances = append(r.Covariances, sig[c*d*d:(c+1)*d*d])
	}
	return r
}

// gmmKindReport is what inspect shows of a gmm model: the settings of
// its fit (null when the model file does not record them) and the
// mixture.
type gmmKindReport struct {
	Settings *mixture.Settings `json:"settings"`
	*gmmReport
}

func inspectGMM(m gendisc.Model) report {
	g := m.(*mixture.GMM)
	r := &gmmKindReport{gmmReport: newGMMReport(g)}
	if s, ok := g.Settings(); ok {
		r.Settings = &s
	}
	return r
}

func (r *gmmKindReport) writeText(w io.Writer) error {
	r.writeHead(w)
	writeMixtureSettings(w, r.Settings)
	return r.writeFit(w)
}

// writeMixtureSettings writes the settings of an EM fit, s (nil when the
// model file does not record them).
func writeMixtureSettings(w io.Writer, s *mixture.Settings) {
	if s == nil {
		fmt.Fprintf(w, "EM settings (--init, --restarts, --seed, --tol, --max-iter, --reg-covar, --reg-covar-mode): not recorded in this model file\n")
		return
	}
	start, runs, seed := s.Init.String()+" (--init)", "1 run", "seed not recorded"
	if s.GivenStart {
		start = "given parameters"
	}
	if s.Restarts > 1 {
		runs = fmt.Sprintf("the best of %d runs (--restarts)", s.Restarts)
	}
	if s.Seed != nil {
		seed = fmt.Sprintf("seed %d (--seed)", *s.Seed)
	}
	fmt.Fprintf(w, "start: %s, %s, %s\n", start, runs, seed)
	if s.Tol > 0 {
		fmt.Fprintf(w, "stop: when the log-likelihood per row changes by less than %s (--tol), or after %d iterations (--max-iter)\n", num(s.Tol), s.MaxIter)
	} else {
		fmt.Fprintf(w, "stop: after %d iterations (--max-iter; no --tol)\n", s.MaxIter)
	}
	switch {
	case s.RegCovar == 0:
		fmt.Fprintf(w, "covariance regularisation: none\n")
	case s.Regularization == mixture.Ridge:
		fmt.Fprintf(w, "covariance regularisation: Σ_k + r·I,  r = %s (--reg-covar, --reg-covar-mode ridge)\n", num(s.RegCovar))
	default:
		fmt.Fprintf(w, "covariance regularisation: every eigenvalue of Σ_k at least r = %s (--reg-covar, --reg-covar-mode floor)\n", num(s.RegCovar))
	}
}

func (r *gmmReport) writeText(w io.Writer) error {
	r.writeHead(w)
	return r.writeFit(w)
}

// writeHead writes the title and the formula of the mixture.
func (r *gmmReport) writeHead(w io.Writer) {
	title := r.title
	if title == "" {
		title = fmt.Sprintf("Gaussian mixture of %d components, %s covariance, fitted by EM", len(r.Weights), r.Covariance)
	}
	fmt.Fprintf(w, "%s\n\n\tp(x) = Σ_k π_k N(x; μ_k, Σ_k)\n\n", title)
}

// writeFit writes the fit: its figures, the log-likelihood trace and
// the parameters.
func (r *gmmReport) writeFit(w io.Writer) error {
	conv := "converged"
	if !r.Converged {
		conv = "did not converge"
	}
	fmt.Fprintf(w, "log-likelihood %s on %s rows (%s per row); %d parameters; BIC %s; AIC %s\n",
		num(float64(r.LogLikelihood)), num(float64(r.Rows)), num(float64(r.LogLikelihood)/float64(r.Rows)),
		r.Parameters, num(float64(r.BIC)), num(float64(r.AIC)))
	fmt.Fprintf(w, "EM: %d iterations, %s; restarts' final log-likelihoods:", r.Iterations, conv)
	for _, v := range r.Restarts {
		fmt.Fprintf(w, " %s", num(v))
	}
	fmt.Fprintln(w)
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	if len(r.Candidates) > 0 {
		fmt.Fprintln(w)
		rows := make([][]string, len(r.Candidates))
		for i, c := range r.Candidates {
			rows[i] = []string{strconv.Itoa(c.K), num(c.LogLik), num(c.BIC), num(c.AIC)}
		}
		if err := writeTable(w, []string{"K", "log-likelihood", "BIC", "AIC"}, rows); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Trace))
	for i, v := range r.Trace {
		rows[i] = []string{strconv.Itoa(i), num(v)}
	}
	if err := writeTable(w, []string{"iteration", "log-likelihood"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	header := []string{"feature"}
	for k, v := range r.Weights {
		header = append(header, fmt.Sprintf("k=%d (π %s)", k, num(v)))
	}
	rows = make([][]string, len(r.Features))
	for j, f := range r.Features {
		rows[j] = []string{f}
		for k := range r.Weights {
			rows[j] = append(rows[j], num(r.Means[k][j]))
		}
	}
	fmt.Fprintf(w, "means μ_k (rows: features, columns: components)\n")
	if err := writeTable(w, header, rows); err != nil {
		return err
	}
	return r.writeCovariances(w)
}

// writeCovariances writes every component's covariance matrix (the
// shared one once for tied), or where to find them when there are many
// features.
func (r *gmmReport) writeCovariances(w io.Writer) error {
	p := len(r.Features)
	switch {
	case r.Covariance == "identity":
		_, err := fmt.Fprintf(w, "\ncovariance matrices: Σ_k = I\n")
		return err
	case p > maxMatrixText:
		_, err := fmt.Fprintf(w, "\ncovariance matrices: %d×%d, printed by inspect --json\n", p, p)
		return err
	}
	for k, cov := range r.Covariances {
		title := fmt.Sprintf("covariance matrix Σ_%d", k)
		if r.Covariance == "tied" {
			if k > 0 {
				break
			}
			title = "covariance matrix Σ, shared by the components"
		}
		if err := writeMatrix(w, title, r.Features, cov); err != nil {
			return err
		}
	}
	return nil
}

// mdaReport is what inspect shows of an MDA model: the settings of the
// classes' EM fits (null when the model file does not record them), the
// class priors and every class's mixture.
type mdaReport struct {
	Settings           *mixture.Settings     `json:"settings"`
	ComponentsPerClass int                   `json:"components_per_class"`
	Classes            []string              `json:"classes"`
	Priors             modelfile.Floats      `json:"priors"`
	ClassWeights       modelfile.Floats      `json:"class_weights"`
	Mixtures           map[string]*gmmReport `json:"mixtures"`
}

func inspectMDA(m gendisc.Model) report {
	md := m.(*mixture.MDA)
	r := &mdaReport{ComponentsPerClass: md.ComponentsPerClass(), Classes: md.Classes(), Priors: md.Priors(),
		ClassWeights: md.ClassWeights(), Mixtures: map[string]*gmmReport{}}
	if s, ok := md.Settings(); ok {
		r.Settings = &s
	}
	for c, name := range r.Classes {
		if g := md.Mixture(c); g != nil {
			r.Mixtures[name] = newGMMReport(g)
			r.Mixtures[name].title = fmt.Sprintf("class %s: p(x | y=%s), a mixture of %d components, %s covariance",
				name, name, g.Components(), g.CovarianceType())
		}
	}
	return r
}

func (r *mdaReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Mixture discriminant analysis: per class a Gaussian mixture fitted by EM (%d components)\n\n", r.ComponentsPerClass)
	fmt.Fprintf(w, "\tP(y=c | x) = π_c p_c(x) / Σ_l π_l p_l(x),  p_c(x) = Σ_k π_ck N(x; μ_ck, Σ_ck)\n\n")
	writeMixtureSettings(w, r.Settings)
	fmt.Fprintln(w)
	rows := make([][]string, len(r.Classes))
	for c, name := range r.Classes {
		rows[c] = []string{name, num(r.Priors[c]), num(r.ClassWeights[c])}
	}
	if err := writeTable(w, []string{"class", "prior π_c", "weight"}, rows); err != nil {
		return err
	}
	for _, name := range r.Classes {
		g := r.Mixtures[name]
		if g == nil {
			fmt.Fprintf(w, "\nclass %s: no training rows (prior 0)\n", name)
			continue
		}
		fmt.Fprintln(w)
		if err := g.writeText(w); err != nil {
			return err
		}
	}
	return nil
}
