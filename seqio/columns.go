package seqio

import (
	"io"
	"strings"

	"github.com/gendisc/gendisc/seq"
)

// docStart begins the document-separator lines of CoNLL-2003.
const docStart = "-DOCSTART-"

// readColumns reads sentences in the column format, the tag in column
// (from 1; 0 for the last), giving each to yield (errStopped when it
// returns false). A file whose lines have one field each is untagged.
func readColumns(lr *lineReader, column int, yield func(seq.Sentence) bool) error {
	var cur seq.Sentence
	var curTags []string
	sentences := 0   // given to yield
	untagged := true // every line so far has one field
	for {
		line, err := lr.next()
		if err != nil && err != io.EOF {
			return err
		}
		fields := strings.Fields(line)
		if err == io.EOF || len(fields) == 0 {
			if len(cur.Tokens) > 0 {
				cur.Tags = curTags
				if !yield(cur) {
					return errStopped
				}
				sentences++
				cur, curTags = seq.Sentence{}, nil
			}
			if err == io.EOF {
				return nil
			}
			continue
		}
		if fields[0] == docStart {
			continue
		}
		if cur.Tokens == nil {
			cur.Line = lr.line
		}
		cur.Tokens = append(cur.Tokens, fields[0])
		if len(fields) == 1 && untagged && column <= 1 {
			continue
		}
		if untagged && (sentences > 0 || len(cur.Tokens) > 1) {
			return lr.errorf(2, "%w: earlier lines have no tag column", ErrTagColumn)
		}
		untagged = false
		c := column
		if c == 0 {
			c = len(fields)
		}
		if c < 2 || c > len(fields) {
			return lr.errorf(min(c, len(fields)+1), "%w: tag column %d of a line of %d fields (the word is column 1)", ErrTagColumn, c, len(fields))
		}
		curTags = append(curTags, fields[c-1])
	}
}
