package modelfile

import "bytes"

// indent appends to dst the JSON value src laid out for reading. Objects,
// and arrays that hold an object or an array, get one member or element per
// line, indented by two spaces per level; arrays of scalars (numbers,
// strings, booleans, null) stay on one line with ", " between elements, so a
// vector of parameters reads as one line; a key is followed by ": ".
// Scalars are copied as they are, so json.Compact of the result is src.
//
// src must be valid JSON without insignificant whitespace, as json.Compact
// writes it; indent does not check.
func indent(dst, src []byte) []byte {
	p := indenter{src: src, dst: dst}
	p.value(0)
	return p.dst
}

type indenter struct {
	src, dst []byte
	pos      int // next byte of src
}

func (p *indenter) value(depth int) {
	switch p.src[p.pos] {
	case '{':
		p.container(depth, '}')
	case '[':
		if !p.flatArray() {
			p.container(depth, ']')
		}
	default:
		p.scalar()
	}
}

// container writes the object or array at p.pos one member per line.
func (p *indenter) container(depth int, end byte) {
	p.dst = append(p.dst, p.src[p.pos])
	p.pos++
	if p.src[p.pos] == end {
		p.dst = append(p.dst, end)
		p.pos++
		return
	}
	for {
		p.newline(depth + 1)
		if end == '}' {
			p.scalar() // the key
			p.dst = append(p.dst, ':', ' ')
			p.pos++ // the colon
		}
		p.value(depth + 1)
		c := p.src[p.pos]
		p.pos++
		if c == end {
			break
		}
		p.dst = append(p.dst, ',')
	}
	p.newline(depth)
	p.dst = append(p.dst, end)
}

// flatArray writes the array at p.pos on one line, ", " between its
// elements, and reports true if it holds no object or array; otherwise it
// writes nothing and reports false. It reads the array once, copying
// each string up to its closing quote (bytes.IndexByte) rather than byte
// by byte.
func (p *indenter) flatArray() bool {
	src, mark, i := p.src, len(p.dst), p.pos+1
	p.dst = append(p.dst, '[')
	for src[i] != ']' {
		switch src[i] {
		case '{', '[':
			p.dst = p.dst[:mark]
			return false
		case '"':
			end := closingQuote(src, i)
			p.dst = append(p.dst, src[i:end+1]...)
			i = end + 1
		default:
			from := i
			for !isDelimiter(src[i]) {
				i++
			}
			p.dst = append(p.dst, src[from:i]...)
		}
		if src[i] == ',' {
			p.dst = append(p.dst, ',', ' ')
			i++
		}
	}
	p.dst = append(p.dst, ']')
	p.pos = i + 1
	return true
}

// closingQuote returns the index of the quote that closes the string
// starting at src[i]: the first after an even number of backslashes.
func closingQuote(src []byte, i int) int {
	end := i + 1
	for {
		end += bytes.IndexByte(src[end:], '"')
		b := end - 1
		for src[b] == '\\' {
			b--
		}
		if (end-1-b)%2 == 0 {
			return end
		}
		end++
	}
}

// scalar copies the string, number, boolean or null at p.pos.
func (p *indenter) scalar() {
	start := p.pos
	if p.src[p.pos] == '"' {
		p.pos++
		for p.src[p.pos] != '"' {
			if p.src[p.pos] == '\\' {
				p.pos++
			}
			p.pos++
		}
		p.pos++
	} else {
		for p.pos < len(p.src) && !isDelimiter(p.src[p.pos]) {
			p.pos++
		}
	}
	p.dst = append(p.dst, p.src[start:p.pos]...)
}

func isDelimiter(c byte) bool { return c == ',' || c == ':' || c == ']' || c == '}' }

func (p *indenter) newline(depth int) {
	p.dst = append(p.dst, '\n')
	for range depth {
		p.dst = append(p.dst, ' ', ' ')
	}
}
