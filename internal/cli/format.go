package cli

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// writeTable writes rows under a header in left-aligned columns, two
// spaces apart.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	io.WriteString(tw, strings.Join(header, "\t")+"\n")
	for _, r := range rows {
		io.WriteString(tw, strings.Join(r, "\t")+"\n")
	}
	return tw.Flush()
}

// num formats x for a table: 6 significant digits.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// writeJSON writes v as indented JSON, with <, > and & as themselves.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
