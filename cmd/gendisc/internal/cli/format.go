package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gendisc/gendisc/modelfile"
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

// writeMatrix writes, after a blank line and a title, the p×p matrix a
// (row-major) as a table whose rows and columns are labelled with the p
// names.
func writeMatrix(w io.Writer, title string, names []string, a []float64) error {
	fmt.Fprintf(w, "\n%s\n", title)
	p := len(names)
	rows := make([][]string, p)
	for j, name := range names {
		rows[j] = []string{name}
		for l := range p {
			rows[j] = append(rows[j], num(a[j*p+l]))
		}
	}
	return writeTable(w, append([]string{""}, names...), rows)
}

// writeByClass writes, after a blank line and a title, a table of one row
// per name, headed head, and one column per class: v[k][j] in row j and
// column k.
func writeByClass(w io.Writer, title, head string, names, classes []string, v []modelfile.Floats) error {
	fmt.Fprintf(w, "\n%s\n", title)
	rows := make([][]string, len(names))
	for j, name := range names {
		rows[j] = []string{name}
		for k := range classes {
			rows[j] = append(rows[j], num(v[k][j]))
		}
	}
	return writeTable(w, append([]string{head}, classes...), rows)
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

// count writes n and the noun, singular for n = 1 and plural otherwise:
// count(1, "value", "values") is "1 value".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
