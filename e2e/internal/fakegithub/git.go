package fakegithub

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// httpBackend is git's smart HTTP server (a CGI program; Debian's git package ships it).
const httpBackend = "/usr/lib/git-core/git-http-backend"

// repoPath matches /{owner}/{name}.git and what git asks under it (info/refs, git-upload-pack,
// git-receive-pack).
var repoPath = regexp.MustCompile(`^/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)\.git(/.*)?$`)

// reposDir is the folder of a namespace's repositories.
func (s *Server) reposDir(namespace string) string { return filepath.Join(s.root, "repos", namespace) }

// repoDir is a repository's bare repository.
func (s *Server) repoDir(namespace, repository string) string {
	return filepath.Join(s.reposDir(namespace), strings.ToLower(repository)+".git")
}

// Seed makes the namespace's repository afresh: a bare repository with one commit (a README) on branch,
// its default branch, as the platform's base branch.
func (s *Server) Seed(namespace, repository, branch string) error {
	if !repoPath.MatchString("/" + repository + ".git") {
		return fmt.Errorf("repository %q is not owner/name", repository)
	}
	dir := s.repoDir(namespace, repository)
	_ = os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if _, err := git("", "init", "--quiet", "--bare", "-b", branch, dir); err != nil {
		return err
	}
	blob, err := gitIn(dir, "hello from the e2e harness\n", "hash-object", "-w", "--stdin")
	if err != nil {
		return err
	}
	tree, err := gitIn(dir, "100644 blob "+blob+"\tREADME.md\n", "mktree")
	if err != nil {
		return err
	}
	commit, err := gitIn(dir, "", "commit-tree", tree, "-m", "first")
	if err != nil {
		return err
	}
	_, err = gitIn(dir, "", "update-ref", "refs/heads/"+branch, commit)
	return err
}

// Commits lists the subjects of the commits on a branch of the namespace's repository, newest first
// (none when the branch does not exist).
func (s *Server) Commits(namespace, repository, branch string) ([]string, error) {
	dir := s.repoDir(namespace, repository)
	if _, err := gitIn(dir, "", "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err != nil {
		return nil, nil
	}
	out, err := gitIn(dir, "", "log", "--format=%s", "refs/heads/"+branch)
	if err != nil {
		return nil, err
	}
	return strings.Split(out, "\n"), nil
}

// gitIn runs git on a bare repository with stdin, as the harness (author and committer fixed).
func gitIn(dir, stdin string, args ...string) (string, error) {
	return git(stdin, append([]string{"--git-dir", dir}, args...)...)
}

func git(stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.test",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.test", "GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// serveGit serves a repository over smart HTTP to a client with an installation token (HTTP Basic, the
// token as the password, as git's credential helper gives it): the repository of the namespace whose App
// the token was made for. Without a token it answers 401 with a Basic challenge, so git asks its
// credential helper, as GitHub answers for a private repository.
func (s *Server) serveGit(w http.ResponseWriter, r *http.Request) {
	m := repoPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		http.NotFound(w, r)
		return
	}
	_, password, ok := r.BasicAuth()
	in := s.installationOf(password)
	if !ok || in == nil {
		w.Header().Set("WWW-Authenticate", `Basic realm="GitHub"`)
		http.Error(w, "Invalid username or token.", http.StatusUnauthorized)
		return
	}
	repository := m[1] + "/" + m[2]
	if _, err := os.Stat(s.repoDir(in.Namespace, repository)); err != nil {
		http.Error(w, "Repository not found.", http.StatusNotFound)
		return
	}
	h := &cgi.Handler{
		Path: httpBackend,
		Dir:  s.reposDir(in.Namespace),
		// PATH_INFO is the request's path: /{owner}/{name}.git/..., under the namespace's folder (lower
		// case, as GitHub's names are case-blind).
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.reposDir(in.Namespace), "GIT_HTTP_EXPORT_ALL=1",
			// receive-pack (push) is served to an authenticated user only.
			"REMOTE_USER=" + in.App,
			"GIT_CONFIG_NOSYSTEM=1", "HOME=/nonexistent",
		},
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + strings.ToLower(repository) + ".git" + m[3]
	h.ServeHTTP(w, r2)
}
