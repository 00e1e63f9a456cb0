package modelfile

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

// flatArray writes the array at p.pos on one line and reports true if it
// holds no object or array; otherwise it writes nothing and reports false.
func (p *indenter) flatArray() bool {
	inString := false
	for i := p.pos + 1; ; i++ {
		c := p.src[i]
		switch {
		case inString && c == '\\':
			i++ // the escaped byte
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			return false
		case c == ']':
			p.appendSpaced(p.src[p.pos : i+1])
			p.pos = i + 1
			return true
		}
	}
}

// appendSpaced appends the flat array a with a space after every comma
// that separates elements.
func (p *indenter) appendSpaced(a []byte) {
	inString := false
	for i := 0; i < len(a); i++ {
		c := a[i]
		p.dst = append(p.dst, c)
		switch {
		case inString && c == '\\':
			i++
			p.dst = append(p.dst, a[i])
		case c == '"':
			inString = !inString
		case !inString && c == ',':
			p.dst = append(p.dst, ' ')
		}
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
