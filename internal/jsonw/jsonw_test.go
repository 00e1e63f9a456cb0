package jsonw

import (
	"encoding/json"
	"testing"
)

// FuzzString checks String against json.Marshal.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "abc", "<=50K", "a\"b\\c", "\x00\n", "été", "\xff", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, json.Marshal %s", s, got, want)
		}
	})
}

// TestArray checks arrays of strings, ints and none (a nil slice: Array's
// null, List's []) against json.Marshal.
func TestArray(t *testing.T) {
	for _, tc := range []struct {
		got []byte
		v   any
	}{
		{Array(nil, []string{"a", "<b>"}, String), []string{"a", "<b>"}},
		{Array(nil, []int32{-1, 0, 7}, Int[int32]), []int32{-1, 0, 7}},
		{Array(nil, []int{}, Int[int]), []int{}},
		{Array(nil, []int(nil), Int[int]), []int(nil)},
		{List(nil, []int(nil), Int[int]), []int{}},
		{List(nil, []string{"x"}, String), []string{"x"}},
	} {
		want, _ := json.Marshal(tc.v)
		if string(tc.got) != string(want) {
			t.Errorf("%#v: %s, json.Marshal %s", tc.v, tc.got, want)
		}
	}
}
