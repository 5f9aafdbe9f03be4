// Package fakegithub stands in for the GitHub a direct agent's step reaches (docs/executors.md): the REST
// API where its App exchanges a JWT for an installation token (POST /app/installations/{id}/access_tokens,
// under /api/v3 as on a GitHub Enterprise Server) and the git server it clones from and pushes to (smart
// HTTP, served by Debian's `git http-backend`). Each namespace the harness runs a scenario in (a slot) has
// its own App installations and its own repositories; a token names its installation, so a fetch or push
// reaches the repositories of the namespace whose App asked for the token, as an installation token is
// scoped on GitHub. It also serves the fake agent CLI (e2e/fakes/agent-cli) its orders: a CLI reports its
// run and waits until the scenario says the agent is done or failed (agents.go).
package fakegithub

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Address is where the server listens on the host, forwarded into every pod (the process node's host
// services): the direct platform of a scenario names https://127.0.0.1:9443 as its GitHub (direct.github).
const Address = "127.0.0.1:9443"

// APIPrefix is the REST API's path, as on a GitHub Enterprise Server (apiUrl https://{host}/api/v3).
const APIPrefix = "/api/v3"

// Server is the fake GitHub.
type Server struct {
	// CAFile is the CA that signed the server's certificate, readable by every user (the agent's pods run
	// as user 1000): the images' CA bundle (e2e/images.yaml) names it.
	CAFile string
	root   string
	srv    *http.Server
	now    func() time.Time

	mu            sync.Mutex
	installations map[string]*Installation // by installation id
	tokens        map[string]*Installation // by token
	nextID        int
	agents        map[string]*Agents // by namespace
}

// New makes a server keeping its repositories under root (nothing listens yet: Serve).
func New(root string) *Server {
	return &Server{
		root: root, now: time.Now,
		installations: map[string]*Installation{}, tokens: map[string]*Installation{}, agents: map[string]*Agents{},
		nextID: 1000,
	}
}

// Start makes a server under root, copies the CA for the pods to read, and serves TLS at Address with the
// given certificate (one that names 127.0.0.1).
func Start(root, certFile, keyFile, caFile string) (*Server, error) {
	s := New(root)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	s.CAFile = filepath.Join(root, "ca.crt")
	if err := os.WriteFile(s.CAFile, ca, 0o644); err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", Address)
	if err != nil {
		return nil, fmt.Errorf("fake GitHub: %w", err)
	}
	s.srv = &http.Server{Handler: s.Handler(), TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(tls.NewListener(l, s.srv.TLSConfig)) }()
	return s, nil
}

// Close stops serving; CLIs still waiting are answered with a failure.
func (s *Server) Close() {
	s.mu.Lock()
	for _, a := range s.agents {
		a.closeAll()
	}
	s.mu.Unlock()
	if s.srv != nil {
		_ = s.srv.Close()
	}
}

// Install makes (or gives again) the installation of app for namespace: a new App id, installation id and
// key the first time.
func (s *Server) Install(namespace, app string) (*Installation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.installations {
		if in.Namespace == namespace && in.App == app {
			return in, nil
		}
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	s.nextID++
	in := &Installation{Namespace: namespace, App: app, AppID: strconv.Itoa(s.nextID), ID: strconv.Itoa(s.nextID + 50000), key: key}
	s.installations[in.ID] = in
	return in, nil
}

// Agents gives the agent runs of a namespace (made on first use).
func (s *Server) Agents(namespace string) *Agents {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.agents[namespace]
	if a == nil {
		a = newAgents(namespace)
		s.agents[namespace] = a
	}
	return a
}

var accessTokensPath = regexp.MustCompile(`^` + APIPrefix + `/app/installations/([0-9]+)/access_tokens$`)

// Handler routes the REST API, the agents' orders and git.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(APIPrefix+"/", s.serveAPI)
	mux.HandleFunc(agentsPrefix, s.serveAgents)
	mux.HandleFunc("/", s.serveGit)
	return mux
}

// apiError answers as GitHub's REST API does: a status and a JSON message.
func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg, "documentation_url": "https://docs.github.com/rest"})
}

// serveAPI answers POST /app/installations/{id}/access_tokens with a new token, for a JWT of the App.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	m := accessTokensPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		apiError(w, http.StatusNotFound, "Not Found")
		return
	}
	if r.Method != http.MethodPost {
		apiError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
		return
	}
	tok, err := s.issueToken(m[1], r.Header.Get("Authorization"))
	if err != nil {
		var he *httpError
		if errors.As(err, &he) {
			apiError(w, he.status, he.msg)
			return
		}
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]string{"token": tok, "expires_at": s.now().Add(time.Hour).UTC().Format(time.RFC3339)})
}

type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return fmt.Sprintf("%d %s", e.status, e.msg) }

// issueToken checks the JWT (Authorization: Bearer) of the installation's App and makes a token.
func (s *Server) issueToken(installationID, authorization string) (string, error) {
	s.mu.Lock()
	in := s.installations[installationID]
	s.mu.Unlock()
	if in == nil {
		return "", &httpError{http.StatusNotFound, "no installation " + installationID}
	}
	const bearer = "Bearer "
	if len(authorization) <= len(bearer) || authorization[:len(bearer)] != bearer {
		return "", &httpError{http.StatusUnauthorized, "A JSON web token could not be decoded: no Bearer authorization"}
	}
	if err := verifyJWT(authorization[len(bearer):], &in.key.PublicKey, in.AppID, s.now()); err != nil {
		return "", &httpError{http.StatusUnauthorized, "A JSON web token could not be decoded: " + err.Error()}
	}
	tok := newToken()
	s.mu.Lock()
	s.tokens[tok] = in
	s.mu.Unlock()
	return tok, nil
}

// installationOf gives the installation a token was made for (nil: none).
func (s *Server) installationOf(token string) *Installation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[token]
}
