//go:build unix

package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRemoveOnSignal runs a process that writes a file slowly and stops
// it with SIGINT and with SIGTERM: the temporary file is removed and the
// process exits with 130 and 143. A process that has committed its file
// is left to the signal's default action.
func TestRemoveOnSignal(t *testing.T) {
	for _, tc := range []struct {
		sig         syscall.Signal
		commit, dir bool
		files       int
	}{{syscall.SIGINT, false, false, 0}, {syscall.SIGTERM, false, false, 0}, {syscall.SIGTERM, true, false, 1}, {syscall.SIGTERM, false, true, 0}} {
		t.Run(fmt.Sprint(tc.sig, tc.commit, tc.dir), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestSlowWriter$")
			cmd.Env = append(os.Environ(), "ATOMICFILE_SLOW_WRITER="+dir)
			if tc.commit {
				cmd.Env = append(cmd.Env, "ATOMICFILE_COMMIT=1")
			}
			if tc.dir {
				cmd.Env = append(cmd.Env, "ATOMICFILE_DIR=1")
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if line != "writing\n" {
				cmd.Process.Kill()
				t.Fatalf("the writer said %q (%v)", line, err)
			}
			if names := files(t, dir); len(names) != 1 || tc.commit != (names[0] == "out.csv") {
				t.Errorf("while writing: %v", names)
			}
			cmd.Process.Signal(tc.sig)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("the writer: %v", err)
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if tc.commit {
				if !ws.Signaled() || ws.Signal() != tc.sig {
					t.Errorf("a writer without a file open: %v, want killed by the signal", err)
				}
			} else if ee.ExitCode() != 128+int(tc.sig) {
				t.Errorf("exit %d, want %d", ee.ExitCode(), 128+int(tc.sig))
			}
			if names := files(t, dir); len(names) != tc.files {
				t.Errorf("files left: %v", names)
			}
		})
	}
}

// TestSlowWriter is the process of TestRemoveOnSignal: it writes to a
// file out.csv in the directory $ATOMICFILE_SLOW_WRITER, says so, and
// waits to be stopped (with the file committed if $ATOMICFILE_COMMIT is
// set), or, with $ATOMICFILE_DIR set, to a file in a directory report of
// MkdirTemp.
func TestSlowWriter(t *testing.T) {
	dir := os.Getenv("ATOMICFILE_SLOW_WRITER")
	if dir == "" {
		t.Skip("the process of TestRemoveOnSignal")
	}
	RemoveOnSignal(os.Interrupt, syscall.SIGTERM)
	if os.Getenv("ATOMICFILE_DIR") != "" {
		d, err := MkdirTemp(filepath.Join(dir, "report"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.Name(), "index.html"), []byte("<p>"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Println("writing")
		time.Sleep(time.Minute)
		os.Exit(3)
	}
	f, err := Create(filepath.Join(dir, "out.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(strings.Repeat("x,y\n", 1000)))
	if os.Getenv("ATOMICFILE_COMMIT") != "" {
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println("writing")
	time.Sleep(time.Minute)
	os.Exit(3) // not stopped
}
