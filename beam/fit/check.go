package fit

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/gendisc/gendisc/dataio"
)

// headRows is the size in bytes of the first chunk of a shard that
// CheckInput reads to find the columns.
const headRows = 1 << 16

// CheckInput finds, before any pipeline is built, the mistakes that would
// otherwise stop one on its workers: a glob that matches no file (on any
// Beam filesystem), and, when opt is not nil, options that the columns of
// the first matched file refuse (a --target or --ignore naming no column,
// say), read from its first rows as dataio.ReadChunks reads them. It
// returns the paths matched.
func CheckInput(ctx context.Context, glob string, opt *dataio.Options) ([]string, error) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	paths, err := fs.List(ctx, glob)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no files matching pattern %q", glob)
	}
	if opt == nil {
		return paths, nil
	}
	r, err := fs.OpenRead(ctx, paths[0])
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for _, err := range dataio.ReadChunks(r, paths[0], *opt, headRows) {
		if err != nil {
			return nil, err
		}
		break
	}
	return paths, nil
}
