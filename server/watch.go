package server

import (
	"context"
	"path/filepath"
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
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	// A file renamed over is a new file: watch the directories, not the
	// files, and pick the events of the files served.
	files := map[string]bool{}
	dirs := map[string]bool{}
	for _, path := range s.opt.Models {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		files[abs] = true
		if err := watchDir(w, filepath.Dir(abs)); err != nil {
			return err
		}
	}
	for _, dir := range s.opt.Dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		dirs[abs] = true
		if err := watchDir(w, abs); err != nil {
			return err
		}
	}
	// A file replaced between the start of the server and now sent no
	// event: reload once, now that every change from here on does.
	s.Reload()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors:
			s.log.Warn("watching the model files", "error", err)
		case ev := <-w.Events:
			dir, base := filepath.Split(ev.Name)
			_, inRepo := modelName(base)
			if files[ev.Name] || inRepo && dirs[filepath.Clean(dir)] {
				timer.Reset(s.opt.WatchDelay)
			}
		case <-timer.C:
			s.Reload() // logs and counts what it refuses
		}
	}
}

// watchDir adds dir to w, once.
func watchDir(w *fsnotify.Watcher, dir string) error {
	for _, d := range w.WatchList() {
		if d == dir {
			return nil
		}
	}
	return w.Add(dir)
}
