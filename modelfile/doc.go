// Package modelfile saves fitted models to files and reads them back: a
// versioned JSON envelope around each model's own parameters.
//
// A model file looks like this (the parameters are the model's
// MarshalJSON output, re-indented; arrays of numbers stay on one line):
//
//	{
//	  "format": "gendisc-model",
//	  "version": 1,
//	  "kind": "gaussian-nb",
//	  "schema": {
//	    "features": [
//	      {
//	        "name": "petal_length",
//	        "kind": "numeric"
//	      }
//	    ],
//	    "target": {
//	      "name": "class",
//	      "kind": "categorical",
//	      "levels": ["setosa", "versicolor"]
//	    }
//	  },
//	  "params": {
//	    "mean": [1.462, 4.26],
//	    "var": [0.029556, 0.2164]
//	  },
//	  "checksum": "sha256:9f2c…"
//	}
//
// Save writes atomically (a temporary file in the same directory, synced,
// then renamed), so a crash or an error never leaves a half-written model.
// Load and Read refuse, with a one-line *Error naming the file, a file that
// is empty, truncated, foreign, from a newer version, or edited: the
// checksum covers the values of format, version, kind, schema and params,
// but not the white space between them, so a file may be re-indented but
// not changed. A UTF-8 byte order mark before the JSON, which some
// editors add, is skipped: it is not part of the JSON text (RFC 8259 §8.1)
// and, the checksum being computed on the values, leaves it unchanged.
// The schema must name what it names once: distinct feature and target
// names, distinct levels in each categorical column (the classes).
//
// Loading is done in two steps: Load returns the Envelope, whose Kind tells
// which model package reads the parameters, and that package's Unmarshal
// function reads Params against Schema and validates them:
//
//	env, err := modelfile.Load(path)
//	if err != nil { ... }
//	if err := env.Expect("gaussian-nb"); err != nil { ... }
//	m, err := naivebayes.UnmarshalGaussian(env.Schema, env.Params)
//
// Each kind's decoder checks the meaning of the parameters: finite
// values within their domain, consistent dimensions, parameters that give
// finite probabilities. The checksum does not replace these checks: it
// detects accidents, and anyone can write a file that passes it (Encode).
//
// Package registry takes both steps for a model file of any registered
// kind (registry.Load), and package models registers every kind.
//
// Parameters that are float64 values use Floats and Float, which read back
// bit for bit, including -0, subnormals, ±Inf and NaN.
package modelfile
