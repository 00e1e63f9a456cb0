package compare

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromiumPath is Debian's chromium (apt-get install -y chromium).
const chromiumPath = "/usr/bin/chromium"

// chromium runs headless chromium with the given extra arguments, in a
// profile of its own and with every network feature it can be asked to
// leave off, and returns its standard output.
func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1200,2000"}
	cmd := exec.CommandContext(ctx, chromiumPath, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// probeScript, added to a copy of index.html, writes the natural size of
// every image into the page once it has loaded, for --dump-dom to show.
const probeScript = `<script>
window.addEventListener("load", function () {
  var out = [];
  for (var i = 0; i < document.images.length; i++) {
    var img = document.images[i];
    out.push(img.getAttribute("src") + "=" + img.naturalWidth + "x" + img.naturalHeight + (img.complete ? "" : ",incomplete"));
  }
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = "IMAGES " + document.images.length + ": " + out.join(" ");
  var right = [];
  var tables = document.getElementsByTagName("table");
  for (var i = 0; i < tables.length; i++) {
    right.push(Math.ceil(tables[i].getBoundingClientRect().right));
  }
  var q = document.createElement("pre");
  q.textContent = "LAYOUT " + document.documentElement.scrollWidth + " " + window.innerWidth + " " + right.join(",") + " END";
  document.body.appendChild(p);
  document.body.appendChild(q);
});
</script>
`

// TestBrowser opens a report of six learners (nine generative-discriminative
// pairs) in headless Chromium 1200 pixels wide, checks that every plot
// loads and that neither the page nor a table is wider than the window (so
// that m* and the gap stay on the screen), and saves a screenshot of the
// page (in the test's artifact
// directory: go test -run Browser -artifacts -outputdir DIR keeps it).
// It is skipped when /usr/bin/chromium is absent, except in continuous
// integration (CI=true), where .ci/run installs it and its absence fails.
func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no %s: .ci/run installs it (apt-get install -y chromium)", chromiumPath)
		}
		t.Skipf("no %s (apt-get install -y chromium)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("chromium takes seconds to start")
	}
	_, res := runCSV(t, Config{Splits: 5, Seed: 1}, stub("nb", Generative), stub("logistic", Discriminative), failing("qda"),
		stub("lda", Generative), stub("logistic_unpenalised", Discriminative), stub("linear_svm", Discriminative))
	dir := filepath.Join(t.TempDir(), "report")
	if err := WriteReport(dir, res, ReportInfo{Command: "gendisc compare", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe.html")
	os.WriteFile(probe, bytes.Replace(index, []byte("</body>"), []byte(probeScript+"</body>"), 1), 0o644)
	dom := chromium(t, "--virtual-time-budget=10000", "--dump-dom", "file://"+probe)
	m := regexp.MustCompile(`IMAGES (\d+): ([^<]*)`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run; DOM:\n%s", dom)
	}
	files := res.PlotFiles()
	if string(m[1]) != strconv.Itoa(len(files)) {
		t.Errorf("%s images in the page, want %d", m[1], len(files))
	}
	for _, s := range strings.Fields(string(m[2])) {
		src, size, _ := strings.Cut(s, "=")
		if size != "672x432" {
			t.Errorf("image %s loaded as %s, want 672x432", src, size)
		}
	}
	t.Logf("images: %s", m[2])
	lay := regexp.MustCompile(`LAYOUT (\d+) (\d+) ([\d,]+) END`).FindSubmatch(dom)
	if lay == nil {
		t.Fatalf("the probe did not measure the layout; DOM:\n%s", dom)
	}
	page, _ := strconv.Atoi(string(lay[1]))
	window, _ := strconv.Atoi(string(lay[2]))
	if page > window {
		t.Errorf("the page is %d pixels wide in a window of %d: it scrolls sideways", page, window)
	}
	for _, r := range strings.Split(string(lay[3]), ",") {
		if right, _ := strconv.Atoi(r); right > window {
			t.Errorf("a table ends at x = %d, beyond the window's %d pixels", right, window)
		}
	}
	t.Logf("layout: page %d, window %d, tables end at %s", page, window, lay[3])

	shot := filepath.Join(t.ArtifactDir(), "report.png")
	chromium(t, "--screenshot="+shot, "file://"+filepath.Join(dir, IndexFile))
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if colours := distinctColours(img, 64); colours < 16 {
		t.Errorf("the screenshot has %d distinct colours: is the page blank?", colours)
	}
	t.Logf("screenshot %s", shot)
}

// distinctColours counts the distinct colours of img up to limit.
func distinctColours(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}
