package ctrinit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestUnderPrivateTmp(t *testing.T) {
	for path, want := range map[string]bool{
		"/tmp":                    true,
		"/tmp/":                   true,
		"/tmp/clone/e2e":          true,
		"/tmp/../tmp/clone":       true,
		"/tmpfiles/clone":         false,
		"/home/dev/clone/e2e":     false,
		"/var/tmp/clone":          false,
		"/srv/clone/tmp/whatever": false,
	} {
		if got := UnderPrivateTmp(path); got != want {
			t.Errorf("UnderPrivateTmp(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestUnderPrivateTmpFollowsSymlinks(t *testing.T) {
	link := filepath.Join(t.TempDir(), "clone")
	if err := os.Symlink("/tmp", link); err != nil {
		t.Fatal(err)
	}
	if !UnderPrivateTmp(link) {
		t.Errorf("UnderPrivateTmp(%s -> /tmp) = false; a link into /tmp is hidden all the same", link)
	}
}
