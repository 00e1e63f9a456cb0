package datasets

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/gendisc/gendisc/dataio/compress"
)

// Corpus describes a bundled text corpus, kept apart from the catalog of
// classification data sets: plain text for language models (one line a
// document, or paragraphs), a CSV table of documents whose classes are not
// a last "class" column, or a treebank in CoNLL-U for sequence models
// (package seqio reads it).
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

const ewtLicense = "CC BY-SA 4.0."

const ewtCitation = "Silveira, N., Dozat, T., de Marneffe, M.-C., Bowman, S., Connor, M., Bauer, J., Manning, C. D. (2014). A Gold Standard Dependency Corpus for English. LREC 2014. Universal Dependencies: de Marneffe, M.-C., Manning, C. D., Nivre, J., Zeman, D. (2021), Computational Linguistics 47(2)."

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

// The treebanks: sequence data in CoNLL-U, from the README of the shared
// datasets directory, whose sha256 are those of the gzip files, committed
// as they are.
var treebanks = []Corpus{
	{
		Name:     "ud_english_ewt",
		File:     "en_ewt-ud-train.conllu",
		Bytes:    14203025,
		License:  ewtLicense,
		Citation: ewtCitation,
		Source:   "GitHub `UniversalDependencies/UD_English-EWT` @ 15d613d8: the concatenation, in the order of `not-to-release/file-lists/files.train`, of the per-document files under `not-to-release/sources/`",
		Notes:    "The English Web Treebank in Universal Dependencies 2.x, training part: 12,544 sentences, 204,577 tokens (weblogs, newsgroups, emails, reviews, question answers); CoNLL-U with UPOS (17 tags) and XPOS (Penn Treebank) tags. The shared README's sha256 c5b1606f… is that of the gzip file.",
		SHA256:   "3fb78e2b55482c8ee00caa653af436c88c9e5bc9a73ce26e4ae3ddc79d2b7e7b",
	},
	{
		Name:     "ud_english_ewt_dev",
		File:     "en_ewt-ud-dev.conllu",
		Bytes:    1805545,
		License:  ewtLicense,
		Citation: ewtCitation,
		Source:   "GitHub `UniversalDependencies/UD_English-EWT` @ 15d613d8, `en_ewt-ud-dev.conllu`",
		Notes:    "The English Web Treebank in Universal Dependencies 2.x, development part: 2,001 sentences, 25,147 tokens; CoNLL-U. The shared README's sha256 7a8a10a9… is that of the gzip file.",
		SHA256:   "531a54ff90d6ab12201c5a50c3e78e6ddac4de69abc4bce5d275d3cd29efe2b6",
	},
}

//go:embed corpus/*.gz corpus/*.xz
var corpusFiles embed.FS

// Corpora returns the descriptions of the bundled corpora, sorted by name.
func Corpora() []Corpus { return slices.Clone(corpora) }

// CorpusInfo returns the description of the corpus called name (with or
// without its file's extension) and whether there is one.
func CorpusInfo(name string) (Corpus, bool) { return info(corpora, name) }

// OpenCorpus returns the text of the corpus called name, decompressed as
// it is read, or an error naming the corpora.
func OpenCorpus(name string) (io.ReadCloser, error) { return open(corpora, "corpus", name) }

// Treebanks returns the descriptions of the bundled treebanks, sequence
// data in CoNLL-U (package seqio reads them), sorted by name.
func Treebanks() []Corpus { return slices.Clone(treebanks) }

// TreebankInfo returns the description of the treebank called name (with
// or without its file's extension) and whether there is one.
func TreebankInfo(name string) (Corpus, bool) { return info(treebanks, name) }

// OpenTreebank returns the CoNLL-U text of the treebank called name, such
// as "ud_english_ewt", decompressed as it is read, or an error naming the
// treebanks.
func OpenTreebank(name string) (io.ReadCloser, error) { return open(treebanks, "treebank", name) }

// info returns the entry of list called name, with or without its file's
// extension, and whether there is one.
func info(list []Corpus, name string) (Corpus, bool) {
	for _, c := range list {
		if c.Name == name || c.File == name {
			return c, true
		}
	}
	return Corpus{}, false
}

// open returns the decompressed text of the entry of list called name,
// what ("corpus") naming the list in the error of an unknown name.
func open(list []Corpus, what, name string) (io.ReadCloser, error) {
	c, ok := info(list, name)
	if !ok {
		names := make([]string, len(list))
		for i, c := range list {
			names[i] = c.Name
		}
		return nil, fmt.Errorf("datasets: no bundled %s %q (bundled: %s)", what, name, strings.Join(names, ", "))
	}
	// The file is compressed, with gzip or, where gzip would leave it
	// over 2 MB (the training part of the English Web Treebank), with xz:
	// the first bytes tell which (compress.Method).
	paths, _ := fs.Glob(corpusFiles, "corpus/"+c.File+".*")
	if len(paths) != 1 {
		return nil, fmt.Errorf("datasets: %s: no single bundled file", name)
	}
	f, err := corpusFiles.Open(paths[0])
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	head, _ := br.Peek(8)
	_, decompress := compress.Method(head)
	if decompress == nil {
		return nil, fmt.Errorf("datasets: %s: not compressed", name)
	}
	r, err := decompress(br)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", name, err)
	}
	return readCloser{r, f}, nil
}

// readCloser reads the decompressed text and closes the embedded file.
type readCloser struct {
	io.Reader
	io.Closer
}
