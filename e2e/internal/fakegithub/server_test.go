package fakegithub

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// signJWT makes an App JWT as the direct step's token program does (RS256, iss, iat, exp).
func signJWT(t *testing.T, key *rsa.PrivateKey, alg string, claims jwtClaims) string {
	t.Helper()
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	head := enc(map[string]string{"alg": alg, "typ": "JWT"}) + "." + enc(claims)
	sum := sha256.Sum256([]byte(head))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return head + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func TestVerifyJWT(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	now := time.Unix(1_800_000_000, 0)
	good := jwtClaims{IAT: now.Unix() - 60, EXP: now.Unix() + 540, ISS: "1001"}
	if err := verifyJWT(signJWT(t, key, "RS256", good), &key.PublicKey, "1001", now); err != nil {
		t.Fatalf("a good JWT: %v", err)
	}
	cases := []struct {
		name, token, want string
	}{
		{"not a JWT", "abc.def", "three parts"},
		{"another algorithm", signJWT(t, key, "HS256", good), "RS256 only"},
		{"another key", signJWT(t, other, "RS256", good), "does not verify"},
		{"another App", signJWT(t, key, "RS256", jwtClaims{IAT: good.IAT, EXP: good.EXP, ISS: "1002"}), "not the App's id"},
		{"expired", signJWT(t, key, "RS256", jwtClaims{IAT: now.Unix() - 700, EXP: now.Unix() - 1, ISS: "1001"}), "expired"},
		{"from the future", signJWT(t, key, "RS256", jwtClaims{IAT: now.Unix() + 120, EXP: now.Unix() + 600, ISS: "1001"}), "future"},
		{"too long", signJWT(t, key, "RS256", jwtClaims{IAT: now.Unix() - 60, EXP: now.Unix() + 3600, ISS: "1001"}), "ten minutes"},
		{"bad signature encoding", strings.Join(strings.Split(signJWT(t, key, "RS256", good), ".")[:2], ".") + ".!!", "signature"},
	}
	for _, c := range cases {
		err := verifyJWT(c.token, &key.PublicKey, "1001", now)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// tokenRequest asks the server for a token of installation id with the JWT.
func tokenRequest(t *testing.T, h http.Handler, id, authorization string) (int, map[string]string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, APIPrefix+"/app/installations/"+id+"/access_tokens", nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body map[string]string
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	return rec.Code, body
}

func TestAccessTokens(t *testing.T) {
	s := New(t.TempDir())
	in, err := s.Install("agents", "5DLabs-Rex")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Install("agents", "5DLabs-Rex")
	if again != in {
		t.Fatal("a second Install of the same App in the same namespace must give the same installation")
	}
	other, _ := s.Install("agents-1", "5DLabs-Rex")
	if other.ID == in.ID || other.AppID == in.AppID {
		t.Fatal("each namespace gets an installation of its own")
	}
	now := time.Now()
	jwt := signJWT(t, in.key, "RS256", jwtClaims{IAT: now.Unix() - 60, EXP: now.Unix() + 540, ISS: in.AppID})
	h := s.Handler()
	code, body := tokenRequest(t, h, in.ID, "Bearer "+jwt)
	if code != http.StatusCreated || !strings.HasPrefix(body["token"], "ghs_") || body["expires_at"] == "" {
		t.Fatalf("token: %d %v", code, body)
	}
	if got := s.installationOf(body["token"]); got != in {
		t.Fatalf("the token names installation %v", got)
	}
	for _, c := range []struct {
		name, id, auth string
		want           int
	}{
		{"no authorization", in.ID, "", http.StatusUnauthorized},
		{"not a bearer", in.ID, "token " + jwt, http.StatusUnauthorized},
		{"another installation's App", other.ID, "Bearer " + jwt, http.StatusUnauthorized},
		{"no such installation", "1", "Bearer " + jwt, http.StatusNotFound},
	} {
		if code, body := tokenRequest(t, h, c.id, c.auth); code != c.want || body["message"] == "" {
			t.Errorf("%s: %d %v, want %d with a message", c.name, code, body, c.want)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, APIPrefix+"/app/installations/"+in.ID+"/access_tokens", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, APIPrefix+"/repos/a/b", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("another API path: %d", rec.Code)
	}
}

// TestGitServer clones, commits and pushes through the server as the direct step's git does (HTTP Basic
// with the installation token), and checks that nothing is served without a token or across namespaces.
func TestGitServer(t *testing.T) {
	if _, err := os.Stat(httpBackend); err != nil {
		t.Skip("git http-backend is not installed")
	}
	s := New(t.TempDir())
	if err := s.Seed("agents", "5dlabs/cto-play-test", "main"); err != nil {
		t.Fatal(err)
	}
	if err := s.Seed("agents", "no-owner", "main"); err == nil {
		t.Fatal("a repository name without owner must be refused")
	}
	in, _ := s.Install("agents", "5DLabs-Rex")
	stranger, _ := s.Install("agents-1", "5DLabs-Rex")
	tok, strangerTok := newToken(), newToken()
	s.tokens[tok], s.tokens[strangerTok] = in, stranger
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	work := t.TempDir()
	run := func(dir string, args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+work, "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	if out, err := run(work, "clone", srv.URL+"/5dlabs/cto-play-test.git", "anonymous"); err == nil {
		t.Fatalf("a clone without a token must fail: %s", out)
	}
	if out, err := run(work, "clone", "http://x-access-token:"+strangerTok+"@"+host+"/5dlabs/cto-play-test.git", "stranger"); err == nil {
		t.Fatalf("another namespace's token must not reach this namespace's repository: %s", out)
	}
	url := "http://x-access-token:" + tok + "@" + host + "/5dlabs/cto-play-test.git"
	if out, err := run(work, "clone", "--quiet", url, "co"); err != nil {
		t.Fatalf("clone: %v: %s", err, out)
	}
	co := filepath.Join(work, "co")
	if b, err := os.ReadFile(filepath.Join(co, "README.md")); err != nil || !strings.Contains(string(b), "e2e harness") {
		t.Fatalf("the seeded README: %q %v", b, err)
	}
	_ = os.WriteFile(filepath.Join(co, "work.md"), []byte("done\n"), 0o644)
	for _, args := range [][]string{{"checkout", "-q", "-b", "feature/task-5-implementation"}, {"add", "work.md"}, {"commit", "-qm", "rex: work"}, {"push", "-q", "origin", "HEAD"}} {
		if out, err := run(co, args...); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	commits, err := s.Commits("agents", "5dlabs/cto-play-test", "feature/task-5-implementation")
	if err != nil || len(commits) != 2 || commits[0] != "rex: work" {
		t.Fatalf("the pushed branch: %v %v", commits, err)
	}
	if none, _ := s.Commits("agents", "5dlabs/cto-play-test", "no-such-branch"); none != nil {
		t.Fatalf("a missing branch has no commits: %v", none)
	}
}

func TestAgents(t *testing.T) {
	s := New(t.TempDir())
	in, _ := s.Install("agents", "5DLabs-Rex")
	tok := newToken()
	s.tokens[tok] = in
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	post := func(path, token string, body any) (int, map[string]any) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+agentsPrefix+path, bytes.NewReader(b))
		if token != "" {
			req.Header.Set("Authorization", "token "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	run := AgentRun{Pod: "play-x-1", Workflow: "play-x", Task: "5", Stage: "implementation", Agent: "rex", CLI: "cursor", Round: "1", Mode: "spawn", Session: "chat-1"}
	if code, _ := post("start", "", run); code != http.StatusUnauthorized {
		t.Fatalf("start without a token: %d", code)
	}
	a := s.Agents("agents")
	if code, _ := post("start", tok, run); code != http.StatusConflict {
		t.Fatalf("start before the harness can tell pods apart: %d", code)
	}
	// The pod of that name now, as the API server has it: a successor play makes a pod of the same name.
	uids := map[string]string{"play-x-1": "uid-a"}
	a.Reset(func(pod string) (string, error) {
		if uid, ok := uids[pod]; ok {
			return uid, nil
		}
		return "", fmt.Errorf("pods %q not found", pod)
	})
	if code, _ := post("start", tok, AgentRun{Pod: "p"}); code != http.StatusConflict {
		t.Fatalf("start without a workflow or mode: %d", code)
	}
	if code, _ := post("start", tok, AgentRun{Pod: "gone", Workflow: "play-x", Mode: "spawn"}); code != http.StatusConflict {
		t.Fatalf("start in a pod the API server does not have: %d", code)
	}
	if code, out := post("start", tok, run); code != http.StatusOK || out["namespace"] != "agents" || out["podUID"] != "uid-a" {
		t.Fatalf("start: %d %v", code, out)
	}
	if code, _ := post("start", tok, run); code != http.StatusConflict {
		t.Fatalf("a second start of one pod: %d", code)
	}
	if code, _ := post("wait", tok, map[string]any{"podUID": "unknown"}); code != http.StatusNotFound {
		t.Fatalf("wait of a pod that did not start: %d", code)
	}
	if _, err := a.Finish("play-x", 0); err == nil {
		t.Fatal("Finish with no CLI waiting must fail")
	}
	done := make(chan map[string]any, 1)
	go func() {
		_, out := post("wait", tok, map[string]any{"podUID": "uid-a", "probe": Probe{APIStatus: 403, Commit: "abc"}})
		done <- out
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !a.Waiting("uid-a") {
		if time.Now().After(deadline) {
			t.Fatal("the CLI never waited")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := a.Finish("play-other", 0); err == nil {
		t.Fatal("Finish of another workflow must fail")
	}
	pods, err := a.Finish("play-x", 3)
	if err != nil || len(pods) != 1 || pods[0] != "play-x-1" {
		t.Fatalf("Finish: %v %v", pods, err)
	}
	if out := <-done; out["exit"] != float64(3) {
		t.Fatalf("the CLI got %v", out)
	}
	if a.Waiting("uid-a") {
		t.Fatal("a finished CLI does not wait")
	}
	// The successor play's pod, under the same name: a run of its own.
	uids["play-x-1"] = "uid-b"
	run.Mode, run.Round = "resume", "2"
	if code, out := post("start", tok, run); code != http.StatusOK || out["podUID"] != "uid-b" {
		t.Fatalf("start in a new pod of an old name: %d %v", code, out)
	}
	runs := a.Runs()
	if len(runs) != 2 || runs[0].PodUID != "uid-a" || runs[0].Exit == nil || *runs[0].Exit != 3 || runs[0].Probe == nil || runs[0].Probe.APIStatus != 403 ||
		runs[1].PodUID != "uid-b" || runs[1].Pod != "play-x-1" || runs[1].Mode != "resume" || runs[1].Exit != nil {
		t.Fatalf("runs: %+v", runs)
	}
	a.Reset(nil)
	if len(a.Runs()) != 0 {
		t.Fatal("Reset forgets the runs")
	}
}
