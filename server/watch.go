package server

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch watches the model files and the model repositories until ctx is
// done, and reloads (Reload) after a change: a model file written anew or
// renamed over the old one (as gendisc writes its files), and a model file
// added to or removed from a repository. Changes closer together than
// Options.WatchDelay give one reload. It returns an error when the
// watching cannot start. Once it watches, it reloads once, so that a file
// replaced between the start of the server and the start of the watching
// is not missed.
//
// Symbolic links are followed, in the directories of a path as at its
// end: the directory of every link met while resolving a model file's or
// a repository's path is watched, and so is the directory the path
// resolves to, so that a link pointed elsewhere reloads (a Kubernetes
// ConfigMap or Secret volume swaps its ..data link to a new directory),
// and so does a file saved over at the end of the links. The parent of
// each directory watched is watched too, so that a directory renamed
// away, removed or made anew (a repository replaced whole) reloads. The
// paths are resolved again and the directories watched set anew before
// and after every reload, Reload's from outside included (SIGHUP's), so
// that the watching follows what the paths resolve to now. A full queue
// of file system events reloads too (events were lost). SIGHUP remains
// the backstop where the file system sends no events (some network file
// systems).
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	dw := &dirWatch{w: w, dirs: map[string]fs.FileInfo{}}
	p := s.watchPlan()
	if err := dw.set(p); err != nil {
		return err
	}
	// A file replaced between the start of the server and now sent no
	// event: reload once, now that every change from here on does.
	s.Reload()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	replan := func() {
		p = s.watchPlan()
		if err := dw.set(p); err != nil {
			s.log.Warn("a directory of the model files is not watched", "error", err)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors:
			s.log.Warn("watching the model files", "error", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				timer.Reset(s.opt.WatchDelay)
			}
		case ev := <-w.Events:
			if p.matters(ev.Name) {
				timer.Reset(s.opt.WatchDelay)
			}
		case <-timer.C:
			// Watch first, then list and load: a file that comes after
			// the listing sends an event.
			replan()
			s.Reload() // logs and counts what it refuses; signals reloaded
		case <-s.reloaded:
			replan()
		}
	}
}

// watchPlan is what Watch watches: the paths whose change reloads and the
// directories to watch for them.
type watchPlan struct {
	// paths are the absolute paths, without links, whose change reloads:
	// the links met resolving a model file's or a repository's path, what
	// the path resolves to, and the directories of these.
	paths map[string]bool
	// repos are the model repositories, resolved: a model file added to
	// one, removed or changed, reloads.
	repos map[string]bool
	// dirs are the directories to watch: those of paths, with true for
	// those that must be watched (the directory of a model file or a
	// repository) and false for those watched at best (their parents).
	dirs map[string]bool
}

// watchPlan resolves the paths of the model files and repositories now.
func (s *Server) watchPlan() *watchPlan {
	p := &watchPlan{paths: map[string]bool{}, repos: map[string]bool{}, dirs: map[string]bool{}}
	for _, path := range s.opt.Models {
		p.file(path)
	}
	for _, dir := range s.opt.Dirs {
		links, real := resolve(dir)
		p.add(links, real)
		p.repos[real], p.dirs[real] = true, true
		files, _ := repoFiles(dir) // a repository that is not there has no files
		for _, path := range files {
			p.file(path)
		}
	}
	return p
}

// file adds the model file path to p.
func (p *watchPlan) file(path string) {
	p.add(resolve(path))
}

// add adds to p the links met resolving a path and what it resolves to.
func (p *watchPlan) add(links []string, real string) {
	for _, path := range append(links, real) {
		dir := filepath.Dir(path)
		p.paths[path], p.paths[dir] = true, true
		p.dirs[dir] = true
		if parent := filepath.Dir(dir); !p.dirs[parent] {
			p.dirs[parent] = false
		}
	}
}

// matters reports whether an event about the file name reloads.
func (p *watchPlan) matters(name string) bool {
	dir, base := filepath.Split(name)
	_, model := modelName(base)
	return p.paths[name] || model && p.repos[filepath.Clean(dir)]
}

// dirWatch is the set of directories a Watcher watches.
type dirWatch struct {
	w    *fsnotify.Watcher
	dirs map[string]fs.FileInfo // each directory watched, as it was when added
}

// set makes d watch the directories of p and no other. A directory that
// is no longer the one watched under its name (removed, or renamed away
// and made anew) is watched anew. It returns the errors of the
// directories of p that must be watched and are not (most often: they
// are not there).
func (d *dirWatch) set(p *watchPlan) error {
	watched := map[string]bool{}
	for _, dir := range d.w.WatchList() {
		watched[dir] = true
	}
	for dir, fi := range d.dirs {
		_, wanted := p.dirs[dir]
		if now, err := os.Stat(dir); err != nil || !os.SameFile(fi, now) || !watched[dir] || !wanted {
			d.w.Remove(dir) // fails for a watch the system dropped
			delete(d.dirs, dir)
		}
	}
	var errs []error
	for dir, must := range p.dirs {
		if d.dirs[dir] != nil {
			continue
		}
		// Stat before Add: should dir change in between, the next set
		// sees that the directory watched is not the one recorded.
		fi, err := os.Stat(dir)
		if err == nil {
			err = d.w.Add(dir)
		}
		if err == nil {
			d.dirs[dir] = fi
		} else if must {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// maxLinks is the most symbolic links resolve follows for one path, as
// the systems' own limits (40 on Linux).
const maxLinks = 40

// resolve follows the symbolic links of path, in its directories as at
// its end, as the system does when it opens the path. It returns the
// links met, in order, each as an absolute path without links, and the
// absolute path without links that path resolves to. Where a part of the
// path is not there (or a link cannot be read, or there are too many),
// it stops: the path resolved to is then that part.
func resolve(path string) (links []string, real string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, filepath.Clean(path)
	}
	sep := string(filepath.Separator)
	vol := filepath.VolumeName(abs)
	cur := vol + sep
	todo := strings.Split(abs[len(vol):], sep)
	for len(todo) > 0 {
		part := todo[0]
		todo = todo[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur) // cur has no links: its parent is its directory
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return links, next
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if err != nil || len(links) == maxLinks {
			return links, next
		}
		links = append(links, next)
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			cur, target = v+sep, target[len(v):]
		}
		todo = append(strings.Split(target, sep), todo...)
	}
	return links, cur
}
