package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// entry is what the README says about one data file.
type entry struct {
	File         string // file name, such as "iris.csv"
	Name         string // file name without ".csv"
	Rows         int
	Features     int
	FeatureTypes string
	Missing      int
	Classes      []classCount
	Source       string // the "from:" bullet
	License      string // the sentences of the "licence / citation:" bullet about the licence (splitLicence)
	Citation     string // the other sentences of that bullet
	Notes        string // the "notes:" bullet
	SHA256       string // hex digest of the file
}

type classCount struct {
	Name  string
	Count int
}

// classRE matches one "name (count)" item of the classes cell; names may
// hold anything but the ", " that separates items.
var classRE = regexp.MustCompile(`^(.+?) \((\d+)\)$`)

// parseReadme reads the README of the shared datasets directory: the summary
// table
//
//	| file | rows | features | feature types | missing cells | classes (count) |
//
// and, for each file, a "### FILE" section whose "- key: value" bullets give
// its source, citation, notes and sha256. It returns the entries in table
// order and checks that table and sections describe the same files and that
// the class counts add up to the rows.
func parseReadme(r io.Reader) ([]*entry, error) {
	var (
		entries []*entry
		byFile  = map[string]*entry{}
		current *entry // the entry whose section is being read
		line    int
	)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line++
		s := sc.Text()
		var err error
		switch {
		case strings.HasPrefix(s, "| ") && strings.Contains(s, ".csv |"):
			var e *entry
			if e, err = parseTableRow(s); err == nil {
				if byFile[e.File] != nil {
					err = fmt.Errorf("%s listed twice", e.File)
				}
				entries = append(entries, e)
				byFile[e.File] = e
			}
		case strings.HasPrefix(s, "### "):
			file := strings.TrimSpace(strings.TrimPrefix(s, "### "))
			if !strings.HasSuffix(file, ".csv") || strings.Contains(file, " ") {
				current = nil // a corpus described in prose, not a file of the table
				break
			}
			if current = byFile[file]; current == nil {
				err = fmt.Errorf("section %q has no row in the table", file)
			}
		case strings.HasPrefix(s, "## "):
			current = nil
		case current != nil && strings.HasPrefix(s, "- "):
			key, value, _ := strings.Cut(strings.TrimPrefix(s, "- "), ": ")
			switch key {
			case "from":
				current.Source = value
			case "licence / citation":
				current.License, current.Citation = splitLicence(value)
			case "notes":
				current.Notes = value
			case "sha256":
				current.SHA256 = strings.Trim(value, "`")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("README.md:%d: %v", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("README.md: no table of data files")
	}
	for _, e := range entries {
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("README.md: %s: %v", e.File, err)
		}
	}
	return entries, nil
}

// parseTableRow reads one row of the summary table.
func parseTableRow(s string) (*entry, error) {
	cells := strings.Split(strings.Trim(s, "| "), "|")
	if len(cells) != 6 {
		return nil, fmt.Errorf("table row has %d cells, want 6", len(cells))
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	e := &entry{File: cells[0], Name: strings.TrimSuffix(cells[0], ".csv"), FeatureTypes: cells[3]}
	for _, f := range []struct {
		dst  *int
		cell string
	}{{&e.Rows, cells[1]}, {&e.Features, cells[2]}, {&e.Missing, cells[4]}} {
		n, err := strconv.Atoi(f.cell)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a count", e.File, f.cell)
		}
		*f.dst = n
	}
	for item := range strings.SplitSeq(cells[5], ", ") {
		m := classRE.FindStringSubmatch(item)
		if m == nil {
			return nil, fmt.Errorf("%s: class %q is not \"name (count)\"", e.File, item)
		}
		n, _ := strconv.Atoi(m[2]) // \d+ always parses
		e.Classes = append(e.Classes, classCount{m[1], n})
	}
	return e, nil
}

// check reports an entry whose section is missing or incomplete, or whose
// class counts do not add up to its rows.
func (e *entry) check() error {
	switch {
	case len(e.SHA256) != 64:
		return fmt.Errorf("no sha256 of 64 hex digits in its section")
	case e.License == "":
		return fmt.Errorf("no licence in its licence / citation")
	case e.Citation == "":
		return fmt.Errorf("no citation in its licence / citation")
	case e.Source == "":
		return fmt.Errorf("no source (from:) in its section")
	}
	sum := 0
	for _, c := range e.Classes {
		sum += c.Count
	}
	if sum != e.Rows {
		return fmt.Errorf("class counts add up to %d, not the %d rows", sum, e.Rows)
	}
	return nil
}

// licenceRE matches the sentences of a "licence / citation:" bullet that
// speak of the licence: the package's licence ("Package: GPL-2 (...)"),
// the lack of a LICENSE file, the licence UCI's pages give (CC BY), the
// public domain.
var licenceRE = regexp.MustCompile(`^Package:|(?i)licen[cs]e|CC BY|public domain`)

// splitLicence splits a "licence / citation:" bullet into its sentences
// about the licence (licenceRE) and the others, the citation, each kept
// in order and joined by spaces. A sentence ends at a full stop outside
// parentheses that ends the text or is followed by a space; an initial
// ("donor M. Marshall") may split a sentence of the citation, which the
// join restores.
func splitLicence(s string) (licence, citation string) {
	var lic, cit []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case '.':
			if depth > 0 {
				continue
			}
			if i+1 < len(s) && s[i+1] != ' ' {
				continue
			}
			sentence := strings.TrimSpace(s[start : i+1])
			if licenceRE.MatchString(sentence) {
				lic = append(lic, sentence)
			} else {
				cit = append(cit, sentence)
			}
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		if licenceRE.MatchString(rest) {
			lic = append(lic, rest)
		} else {
			cit = append(cit, rest)
		}
	}
	return strings.Join(lic, " "), strings.Join(cit, " ")
}
