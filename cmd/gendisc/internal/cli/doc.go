// Package cli implements the gendisc command line: one Command per verb
// (fit, predict, eval, inspect, cluster, datasets, ...), each defining its
// flags and the function that runs it. The model kinds are package
// registry's (kind.go): the commands derive the kinds, their flags and
// what a model can do from a kind's declaration and the capabilities of
// its models; only inspect describes each family's parameters
// (inspect_FAMILY.go), with a generic description for other kinds.
//
// Commands see the world only through an Env (standard streams and the
// global --quiet and --verbose settings), so tests run them in-process with
// buffers. Main maps the outcome to the exit status:
//
//	0  success
//	1  failure of data or computation: one line "gendisc: ..." on stderr
//	2  misuse (unknown command or flag, missing required flag): the
//	   message and the command's usage line on stderr
//
// Files are written atomically (output.go): a command that fails leaves no
// output file, whole or partial.
package cli
