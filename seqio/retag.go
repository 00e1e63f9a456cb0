package seqio

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Retag writes the sequence data of r, which Read read with opt as
// sentences, to w in its format with the tags of sentence i replaced by
// tags[i] (a tagger's predictions), everything else as it was:
//
//   - CoNLL-U: the field of opt.Tags of each word line (for misc:KEY, the
//     KEY=value of the MISC field, added when absent); comments,
//     multiword-token lines and empty nodes untouched;
//   - columns: the tag column (opt.TagColumn, else the last) of each
//     token line, or a column appended to an untagged file's lines,
//     separated by a tab when the line has one, else a space;
//     "-DOCSTART-" lines untouched;
//   - JSON lines: the member "tags" of each object, added when absent;
//     the other members kept (encoded again, in the order of their
//     names);
//   - CRFsuite's format: the label of each line.
//
// Lines end in "\n" (a "\r" before it and a byte-order mark are not
// kept). An error names the sentence whose tags are not one per token,
// or the data that no longer reads as it did.
func Retag(w io.Writer, r io.Reader, source string, opt Options, tags [][]string) error {
	in, err := open(r, source, opt)
	if err != nil {
		return err
	}
	defer in.close()
	rt := &retagger{tags: tags, source: source}
	var token func(line string) (string, error) // a token line with its new tag; others as they are
	switch in.format {
	case CoNLLU:
		token = rt.conllu(in.field)
	case Columns:
		token = rt.columns(opt.TagColumn)
	case CRFsuite:
		token = rt.crfsuite
	case JSONLines:
		token = rt.jsonLine
	default:
		return fmt.Errorf("%s: unknown sequence format %v", source, in.format)
	}
	bw := bufio.NewWriter(w)
	for {
		line, err := in.lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(line) == "" {
			if err := rt.end(); err != nil {
				return err
			}
		} else if line, err = token(line); err != nil {
			return fmt.Errorf("%s:%d: %w", source, in.lr.line, err)
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
	}
	if err := rt.end(); err != nil {
		return err
	}
	if rt.sentence != len(tags) {
		return fmt.Errorf("%s: %d sentences, %d tag sequences", source, rt.sentence, len(tags))
	}
	return bw.Flush()
}

// retagger walks the sentences of a file and their new tags.
type retagger struct {
	tags     [][]string
	source   string
	sentence int // the sentence being read, from 0
	token    int // its tokens so far
}

// next returns the tag of the next token of the current sentence.
func (rt *retagger) next() (string, error) {
	if rt.sentence >= len(rt.tags) || rt.token >= len(rt.tags[rt.sentence]) {
		return "", fmt.Errorf("sentence %d: more tokens than tags", rt.sentence+1)
	}
	rt.token++
	return rt.tags[rt.sentence][rt.token-1], nil
}

// end ends the current sentence, if it has tokens.
func (rt *retagger) end() error {
	if rt.token == 0 {
		return nil
	}
	if n := len(rt.tags[rt.sentence]); rt.token != n {
		return fmt.Errorf("%s: sentence %d: %d tokens, %d tags", rt.source, rt.sentence+1, rt.token, n)
	}
	rt.sentence, rt.token = rt.sentence+1, 0
	return nil
}

// conllu returns the retagging of CoNLL-U lines with the tag field.
func (rt *retagger) conllu(field conlluTag) func(string) (string, error) {
	return func(line string) (string, error) {
		fields := strings.Split(line, "\t")
		if line[0] == '#' || strings.ContainsAny(fields[0], "-.") {
			return line, nil
		}
		if len(fields) != conlluFields {
			return "", fmt.Errorf("%d fields, not CoNLL-U's %d", len(fields), conlluFields)
		}
		tag, err := rt.next()
		if err != nil {
			return "", err
		}
		if field.key == "" {
			fields[field.field] = tag
		} else {
			fields[fieldMisc] = setMisc(fields[fieldMisc], field.key, tag)
		}
		return strings.Join(fields, "\t"), nil
	}
}

// setMisc returns the MISC field misc with key=value, in the place of
// key's or after the others.
func setMisc(misc, key, value string) string {
	if misc == "_" {
		return key + "=" + value
	}
	pairs := strings.Split(misc, "|")
	for i, kv := range pairs {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			pairs[i] = key + "=" + value
			return strings.Join(pairs, "|")
		}
	}
	return misc + "|" + key + "=" + value
}

// columns returns the retagging of column lines with the tag in column
// (from 1; 0 for the last).
func (rt *retagger) columns(column int) func(string) (string, error) {
	return func(line string) (string, error) {
		fields := strings.Fields(line)
		if fields[0] == docStart {
			return line, nil
		}
		tag, err := rt.next()
		if err != nil {
			return "", err
		}
		sep := " "
		if strings.Contains(line, "\t") {
			sep = "\t"
		}
		c := column
		if c == 0 {
			c = len(fields)
		}
		switch {
		case len(fields) == 1:
			fields = append(fields, tag)
		case c >= 2 && c <= len(fields):
			fields[c-1] = tag
		default:
			return "", fmt.Errorf("%w: tag column %d of a line of %d fields", ErrTagColumn, c, len(fields))
		}
		return strings.Join(fields, sep), nil
	}
}

// crfsuite retags a line of CRFsuite's format: its label.
func (rt *retagger) crfsuite(line string) (string, error) {
	tag, err := rt.next()
	if err != nil {
		return "", err
	}
	if i := strings.IndexByte(line, '\t'); i >= 0 {
		return tag + line[i:], nil
	}
	return tag, nil
}

// jsonLine retags a JSON line, one sentence: its member "tags".
func (rt *retagger) jsonLine(line string) (string, error) {
	var members map[string]json.RawMessage
	var s jsonSentence
	if err := json.Unmarshal([]byte(line), &members); err != nil {
		return "", err
	}
	if err := json.Unmarshal([]byte(line), &s); err != nil {
		return "", err
	}
	if rt.sentence >= len(rt.tags) || len(rt.tags[rt.sentence]) != len(s.Tokens) {
		return "", fmt.Errorf("sentence %d: tags not one per token", rt.sentence+1)
	}
	tags, err := json.Marshal(rt.tags[rt.sentence])
	if err != nil {
		return "", err
	}
	members["tags"] = tags
	out, err := json.Marshal(members)
	rt.sentence++
	return string(out), err
}
