package cli

import "strings"

// didYouMean returns " (did you mean X?)" for the names that the mistyped
// word may have meant, or "" when none is near. A name is near when it
// starts with word (word at least two characters long), or is within
// Damerau–Levenshtein distance 2 of it and the distance is at most half
// the length of word (so that "ab" does not suggest every two-letter
// name). The nearest names are given (by distance, a prefix counting as
// distance 1 for a word shorter than the name), at most three, in the
// order of names.
func didYouMean(word string, names []string, spell func(string) string) string {
	best, near := 3, []string(nil)
	for _, name := range names {
		d := osaDistance(word, name)
		if len(word) >= 2 && len(word) < len(name) && strings.HasPrefix(name, word) {
			d = min(d, 1)
		} else if 2*d > len(word) {
			continue
		}
		switch {
		case d < best:
			best, near = d, []string{name}
		case d == best:
			near = append(near, name)
		}
	}
	if len(near) == 0 || len(near) > 3 {
		return ""
	}
	for i, n := range near {
		near[i] = spell(n)
	}
	if len(near) == 1 {
		return " (did you mean " + near[0] + "?)"
	}
	return " (did you mean " + strings.Join(near[:len(near)-1], ", ") + " or " + near[len(near)-1] + "?)"
}

// osaDistance is the optimal string alignment distance between a and b
// (on bytes): the fewest insertions, deletions, substitutions and swaps
// of two adjacent characters that turn a into b, no substring edited
// twice (Damerau–Levenshtein restricted). d[i][j] is the distance
// between a[:i] and b[:j]:
//
//	d[i][j] = min(d[i−1][j] + 1, d[i][j−1] + 1, d[i−1][j−1] + [a_i ≠ b_j],
//	              d[i−2][j−2] + 1 when a_i = b_{j−1} and a_{i−1} = b_j)
func osaDistance(a, b string) int {
	// Three rows of the table: two back, one back, this one.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// commandNames returns the names of the commands, with help.
func commandNames() []string {
	names := []string{"help"}
	for _, c := range commands {
		names = append(names, c.Name)
	}
	return names
}

// same spells a name as it is.
func same(s string) string { return s }
