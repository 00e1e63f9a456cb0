package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestParquetDatesAndDecimals: a DuckDB-written file of dates, times,
// timestamps and decimals (dataio/testdata/duckdb/logical.parquet) is
// refused with the flags that read a date named neither way, and a model
// fitted with them named predicts the same file through its schema, with
// no value unseen.
func TestParquetDatesAndDecimals(t *testing.T) {
	const in = "../../../../dataio/testdata/duckdb/logical.parquet"
	r := runCLI(t, "", "fit", "--data", in, "--model", "nb", "--out", "-")
	want := `column "day": column type not read: the column is a DATE: it is read as numbers (days since 1970-01-01) or as categories (such as 2024-01-02) when named so, or ignored (name it in --numeric day or --categorical day, or --ignore day)` + "\n"
	if r.code != 1 || !strings.HasSuffix(r.stderr, want) {
		t.Errorf("exit %d, stderr %q\nwant the suffix %q", r.code, r.stderr, want)
	}
	model := filepath.Join(t.TempDir(), "nb.json")
	mustRun(t, "fit", "--data", in, "--model", "nb", "--numeric", "day,tod,ts_ms,ts_us,ts_ns", "--categorical", "ts_tz,dec9", "--out", model)
	r = runCLI(t, "", "predict", "--model", model, "--data", in)
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || r.stderr != "" || len(lines) != 401 {
		t.Errorf("predict: exit %d, %d lines, stderr %q", r.code, len(lines), r.stderr)
	}
}
