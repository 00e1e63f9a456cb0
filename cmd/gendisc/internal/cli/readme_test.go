package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeMarker marks a code block of README.md that TestReadme runs: the
// line "<!-- readme-test -->" before the block, or "<!-- readme-test
// slow -->" for one that runs only when the environment variable
// GENDISC_README_SLOW is 1 (the full compare takes from 44 s on a quiet
// machine to 16 min on a loaded one: go test ./... must not time out);
// "<!-- readme-test slow: gendisc CMD -->" makes the block the output of
// that command. A
// block is fenced (```) or indented (a tab or four spaces). In a block of
// "$ gendisc ..." lines, the lines after a command are its expected
// standard output, in which a line "..." stands for any lines; in a block
// without "$", every line is a command that must succeed. Commands may be
// joined by &&; "# ..." ends a line.
const readmeMarker = "<!-- readme-test"

// readmeStep is a command line of README and the output it shows.
type readmeStep struct {
	line   string
	args   [][]string // the commands joined by &&
	output []string   // nil when README shows none
}

// TestReadme runs the marked examples of README.md, in order and in one
// fresh directory, as a new user would from a checkout, and compares
// their output with what README shows.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, string(readme))
	if len(blocks) < 3 {
		t.Fatalf("%d marked blocks in README.md, want at least 3", len(blocks))
	}
	t.Chdir(t.TempDir())
	for _, b := range blocks {
		if b.slow && (testing.Short() || os.Getenv("GENDISC_README_SLOW") != "1") {
			t.Logf("README line %d: slow, left out (GENDISC_README_SLOW=1 runs it)", b.line)
			continue
		}
		for _, s := range b.steps {
			var stdout strings.Builder
			for _, args := range s.args {
				r := runCLI(t, "", args...)
				if r.code != 0 {
					t.Fatalf("README line %d: %s: exit %d, stderr:\n%s", b.line, s.line, r.code, r.stderr)
				}
				stdout.WriteString(r.stdout)
			}
			if s.output != nil && !containsInOrder(stdout.String(), s.output) {
				t.Errorf("README line %d: %s: the output is not what README shows:\n%s\nREADME shows:\n%s",
					b.line, s.line, stdout.String(), strings.Join(s.output, "\n"))
			}
		}
	}
}

// readmeBlock is a marked code block: its first line's number, whether
// it is slow, its steps.
type readmeBlock struct {
	line  int
	slow  bool
	steps []readmeStep
}

// readmeBlocks finds the marked code blocks of README text.
func readmeBlocks(t *testing.T, text string) []readmeBlock {
	lines := strings.Split(text, "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		marker, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), readmeMarker)
		if !ok {
			continue
		}
		kind, cmd, hasCmd := strings.Cut(strings.TrimSpace(strings.TrimSuffix(marker, "-->")), ":")
		b := readmeBlock{slow: strings.TrimSpace(kind) == "slow"}
		i++
		for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
			i++
		}
		var code []string
		switch {
		case i < len(lines) && strings.HasPrefix(lines[i], "```"):
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				code = append(code, lines[i])
			}
		default:
			for ; i < len(lines) && (lines[i] == "" || strings.HasPrefix(lines[i], "\t") || strings.HasPrefix(lines[i], "    ")); i++ {
				line, ok := strings.CutPrefix(lines[i], "\t")
				if !ok {
					line = strings.TrimPrefix(lines[i], "    ")
				}
				code = append(code, line)
			}
			for len(code) > 0 && code[len(code)-1] == "" {
				code = code[:len(code)-1]
			}
		}
		if len(code) == 0 {
			t.Fatalf("README line %d: a marker without a code block after it", i)
		}
		b.line = i - len(code) + 1
		if hasCmd { // the block is the output of the marker's command
			code = append([]string{"$ " + strings.TrimSpace(cmd)}, code...)
		}
		b.steps = readmeSteps(t, code)
		blocks = append(blocks, b)
	}
	return blocks
}

// readmeSteps parses the lines of a code block into steps.
func readmeSteps(t *testing.T, code []string) []readmeStep {
	transcript := strings.HasPrefix(code[0], "$ ")
	var steps []readmeStep
	for _, line := range code {
		cmd, isCmd := strings.CutPrefix(line, "$ ")
		if transcript && !isCmd {
			last := &steps[len(steps)-1]
			last.output = append(last.output, strings.TrimRight(line, " "))
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !transcript {
			cmd = line
		}
		s := readmeStep{line: cmd}
		for _, part := range strings.Split(shellWords(t, cmd), "\x00&&\x00") {
			words := strings.Split(part, "\x00")
			if len(words) == 0 || words[0] != "gendisc" {
				t.Fatalf("README: %q: the test runs gendisc commands only", cmd)
			}
			s.args = append(s.args, words[1:])
		}
		steps = append(steps, s)
	}
	return steps
}

// shellWords splits a command line into its words as a POSIX shell would
// for the simple lines of README (single and double quotes, a comment
// after #), joined by NUL bytes.
func shellWords(t *testing.T, line string) string {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			i = len(line)
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				t.Fatalf("README: %q: unbalanced quotes", line)
			}
			word.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return strings.Join(words, "\x00")
}

// containsInOrder reports whether the lines of want, trailing blanks
// aside, appear in out in order: each run of lines between "..." lines
// as consecutive lines.
func containsInOrder(out string, want []string) bool {
	var got []string
	for _, l := range strings.Split(out, "\n") {
		got = append(got, strings.TrimRight(l, " "))
	}
	var runs [][]string
	run := []string{}
	for _, w := range want {
		if w == "..." {
			runs, run = append(runs, run), []string{}
			continue
		}
		run = append(run, w)
	}
	runs = append(runs, run)
	at := 0
	for _, r := range runs {
		found := false
		for ; at+len(r) <= len(got); at++ {
			if equalLines(got[at:at+len(r)], r) {
				at += len(r)
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// equalLines reports whether a and b hold the same lines.
func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
