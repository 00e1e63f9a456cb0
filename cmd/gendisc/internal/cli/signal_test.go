//go:build unix

package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinaryStoppedWhileWriting stops the built gendisc with SIGINT and
// with SIGTERM while it writes a large output file (sample of a billion
// rows): it removes its temporary file, leaves no output, and exits with
// 130 and 143.
func TestBinaryStoppedWhileWriting(t *testing.T) {
	bin, dir := buildGendisc(t)
	model := filepath.Join(dir, "iris.json")
	if out, err := exec.Command(bin, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", model).CombinedOutput(); err != nil {
		t.Fatalf("fit: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, "sample", "--model", model, "-n", "1000000000", "--out", filepath.Join(out, "rows.csv"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for rows in the temporary file.
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				ents, _ := os.ReadDir(out)
				if len(ents) == 1 && strings.HasPrefix(ents[0].Name(), ".rows.csv.tmp") {
					if fi, err := ents[0].Info(); err == nil && fi.Size() > 0 {
						break
					}
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no temporary file written: %v", ents)
				}
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("stopped by %v: %v, want exit status %d", sig, err, 128+int(sig))
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("left %v", ents)
			}
		})
	}
}
