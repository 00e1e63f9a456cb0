package crf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
)

// maxLineBytes bounds a line of a CRFsuite data file.
const maxLineBytes = 16 << 20

// ReadData reads sequences in CRFsuite's data format: one item a line,
// its label, then its attributes, separated by tabs; an attribute is NAME
// or NAME:VALUE (value 1 when absent), with ":" and "\" in NAME written
// "\:" and "\\"; a blank line ends a sequence. name names the input in
// errors, which are *data.ParseError at the line and field (from 1) of a
// malformed item: a value that is not a finite number, an empty attribute
// name, a bad escape. Lines of at most 16 MiB.
func ReadData(r io.Reader, name string) ([]Sequence, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var seqs []Sequence
	var cur Sequence
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			if len(cur.Items) > 0 {
				seqs = append(seqs, cur)
			}
			cur = Sequence{}
			continue
		}
		fields := strings.Split(text, "\t")
		item := make(Item, 0, len(fields)-1)
		for col, field := range fields[1:] {
			if field == "" {
				continue // tolerate doubled tabs, as CRFsuite does
			}
			a, err := parseAttribute(field)
			if err != nil {
				return nil, &data.ParseError{File: name, Line: line, Column: col + 2, Err: err}
			}
			item = append(item, a)
		}
		cur.Items = append(cur.Items, item)
		cur.Labels = append(cur.Labels, fields[0])
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line longer than %d bytes", name, maxLineBytes)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(cur.Items) > 0 {
		seqs = append(seqs, cur)
	}
	return seqs, nil
}

// parseAttribute parses NAME[:VALUE] with CRFsuite's escapes.
func parseAttribute(field string) (Attribute, error) {
	var b strings.Builder
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '\\':
			if i+1 == len(field) || (field[i+1] != ':' && field[i+1] != '\\') {
				return Attribute{}, fmt.Errorf("attribute %q: a backslash not followed by ':' or '\\'", field)
			}
			i++
			b.WriteByte(field[i])
		case ':':
			if b.Len() == 0 {
				return Attribute{}, fmt.Errorf("attribute %q: an empty name", field)
			}
			v, err := strconv.ParseFloat(field[i+1:], 64)
			if err != nil || !isFinite(v) {
				return Attribute{}, fmt.Errorf("attribute %q: the value %q is not a finite number", field, field[i+1:])
			}
			return Attribute{Name: b.String(), Value: v}, nil
		default:
			b.WriteByte(c)
		}
	}
	return Attribute{Name: b.String(), Value: 1}, nil
}

// WriteData writes seqs in CRFsuite's data format (see ReadData), values of
// 1 without ":1", others in the shortest form that reads back to the same
// float64. A sequence without labels is written with empty labels.
func WriteData(w io.Writer, seqs []Sequence) error {
	bw := bufio.NewWriter(w)
	escaper := strings.NewReplacer(`\`, `\\`, `:`, `\:`)
	for i, s := range seqs {
		if s.Labels != nil && len(s.Labels) != len(s.Items) {
			return fmt.Errorf("sequence %d: %d labels for %d items", i+1, len(s.Labels), len(s.Items))
		}
		for t, item := range s.Items {
			if s.Labels != nil {
				if strings.ContainsAny(s.Labels[t], "\t\n\r") {
					return fmt.Errorf("sequence %d, item %d: the label %q has a tab or a line break", i+1, t+1, s.Labels[t])
				}
				bw.WriteString(s.Labels[t])
			}
			for _, a := range item {
				if a.Name == "" || strings.ContainsAny(a.Name, "\t\n\r") {
					return fmt.Errorf("sequence %d, item %d: the attribute name %q is empty or has a tab or a line break", i+1, t+1, a.Name)
				}
				bw.WriteByte('\t')
				bw.WriteString(escaper.Replace(a.Name))
				if a.Value != 1 {
					bw.WriteByte(':')
					bw.WriteString(strconv.FormatFloat(a.Value, 'g', -1, 64))
				}
			}
			bw.WriteByte('\n')
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
