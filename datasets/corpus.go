package datasets

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Corpus describes a bundled text corpus for language models: plain text
// (one line a document, or paragraphs), or a CSV table of documents whose
// classes are not a last "class" column, kept apart from the catalog of
// classification data sets.
type Corpus struct {
	Name     string `json:"name"`  // the name OpenCorpus takes, such as "tinyshakespeare"
	File     string `json:"file"`  // the file's name, such as "tinyshakespeare.txt"
	Bytes    int    `json:"bytes"` // the size of the uncompressed file
	License  string `json:"license"`
	Citation string `json:"citation"`
	Source   string `json:"source"`
	Notes    string `json:"notes"`
	SHA256   string `json:"sha256"` // hex sha256 of the uncompressed file
}

// PlainText reports whether the corpus is plain text rather than CSV.
func (c Corpus) PlainText() bool { return strings.HasSuffix(c.File, ".txt") }

// The corpora, from the README of the shared datasets directory.
var corpora = []Corpus{
	{
		Name:     "shakespeare_speeches",
		File:     "shakespeare_speeches.csv",
		Bytes:    1117101,
		License:  "Shakespeare's text is in the public domain.",
		Citation: "Karpathy, A. (2015), char-rnn, https://github.com/karpathy/char-rnn.",
		Source:   "tinyshakespeare.txt, split at blank lines; a block whose first line ends in `:` is a speech by that speaker",
		Notes:    "7095 rows, columns `text` (the speech, its lines joined by single spaces) and `speaker` (299 distinct; most frequent GLOUCESTER 211, DUKE VINCENTIO 189, MENENIUS 161, ROMEO 160, PETRUCHIO 155).",
		SHA256:   "4d1358d1ef919b3a3030091bf495ae8b44d149b2f451099ef98effcf01332f36",
	},
	{
		Name:     "tinyshakespeare",
		File:     "tinyshakespeare.txt",
		Bytes:    1115394,
		License:  "Shakespeare's text is in the public domain; the collection's repository is MIT-licensed.",
		Citation: "Karpathy, A. (2015), char-rnn, https://github.com/karpathy/char-rnn.",
		Source:   "GitHub `karpathy/char-rnn` @ 6f9487a, `data/tinyshakespeare/input.txt` (the collection made for char-rnn)",
		Notes:    "1,115,394 characters (40,000 lines) of Shakespeare's plays: speaker lines (`NAME:`) followed by the speech, speeches separated by blank lines. Plain text, not CSV.",
		SHA256:   "86c4e6aa9db7c042ec79f339dcb96d42b0075e16b8fc2e86bf0ca57e2dc565ed",
	},
}

//go:embed corpus/*.gz
var corpusFiles embed.FS

// Corpora returns the descriptions of the bundled corpora, sorted by name.
func Corpora() []Corpus { return slices.Clone(corpora) }

// CorpusInfo returns the description of the corpus called name (with or
// without its file's extension) and whether there is one.
func CorpusInfo(name string) (Corpus, bool) {
	for _, c := range corpora {
		if c.Name == name || c.File == name {
			return c, true
		}
	}
	return Corpus{}, false
}

// OpenCorpus returns the text of the corpus called name, decompressed as
// it is read, or an error naming the corpora.
func OpenCorpus(name string) (io.ReadCloser, error) {
	c, ok := CorpusInfo(name)
	if !ok {
		names := make([]string, len(corpora))
		for i, c := range corpora {
			names[i] = c.Name
		}
		return nil, fmt.Errorf("datasets: no bundled corpus %q (bundled: %s)", name, strings.Join(names, ", "))
	}
	f, err := corpusFiles.Open("corpus/" + c.File + ".gz")
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	return zr, nil
}
