// Command gendisc fits, applies and inspects generative and discriminative
// classifiers from the shell. Run "gendisc help" for the commands.
package main

import (
	"context"
	"os"

	"github.com/gendisc/gendisc/cmd/gendisc/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), cli.StdEnv(), os.Args[1:]))
}
