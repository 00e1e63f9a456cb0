// Command gendisc fits, applies and inspects generative and discriminative
// classifiers from the shell. Run "gendisc help" for the commands.
package main

import (
	"context"
	"os"
	"syscall"

	"github.com/gendisc/gendisc/cmd/gendisc/internal/cli"
	"github.com/gendisc/gendisc/internal/atomicfile"
)

func main() {
	// Stopped while it writes a file, gendisc removes the temporary file
	// and exits with 130 or 143; otherwise the signals keep their action.
	atomicfile.RemoveOnSignal(os.Interrupt, syscall.SIGTERM)
	os.Exit(cli.Main(context.Background(), cli.StdEnv(), os.Args[1:]))
}
