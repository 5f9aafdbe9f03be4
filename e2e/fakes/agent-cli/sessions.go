package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Each CLI keeps its sessions under its HOME (on the agent's workspace, so they outlive the pod). claude's
// store is the one the direct step looks at when a stopped pod's chosen id must be confirmed:
// ~/.claude/projects/<project>/<id>.jsonl (CLAUDE_CONFIG_DIR in place of ~/.claude when set), written as
// the session starts; the others keep theirs where the step never looks, here ~/.e2e-agent-cli/<cli>/.

// projectName is claude's folder name for a working directory: every character but letters and digits
// becomes "-" (/workspace/play-test is -workspace-play-test).
var projectName = regexp.MustCompile(`[^A-Za-z0-9]`)

// sessionFile is where the CLI keeps session id of a run in folder cwd.
func sessionFile(env func(string) string, cli, id, cwd string) string {
	if cli == "claude" {
		dir := env("CLAUDE_CONFIG_DIR")
		if dir == "" {
			dir = filepath.Join(env("HOME"), ".claude")
		}
		return filepath.Join(dir, "projects", projectName.ReplaceAllString(cwd, "-"), id+".jsonl")
	}
	return filepath.Join(env("HOME"), ".e2e-agent-cli", cli, id+".jsonl")
}

// newSessionID makes an id in the CLI's own form: opencode's ses_..., a UUID for the others.
func newSessionID(cli string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	if cli == "opencode" {
		return "ses_" + hex.EncodeToString(b[:12])
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// errNoSession is a resume of a session the store does not hold (claude: "No conversation found").
var errNoSession = errors.New("no conversation found")

// openSession starts the run's session: a resumed one must be in the store, a new one must not (claude
// refuses a --session-id in use); the prompt is written to it either way. It gives the session's id.
func openSession(env func(string) string, inv *invocation, cwd string) (string, error) {
	id := inv.session
	if !inv.resume && id == "" {
		id = newSessionID(inv.cli)
	}
	file := sessionFile(env, inv.cli, id, cwd)
	_, err := os.Stat(file)
	switch {
	case inv.resume && err != nil:
		return "", fmt.Errorf("%w with session ID: %s", errNoSession, id)
	case !inv.resume && err == nil:
		return "", fmt.Errorf("session ID %s is already in use", id)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", err
	}
	return id, appendTurn(file, "user", id, inv.prompt)
}

// appendTurn adds one turn to a session's file.
func appendTurn(file, role, id, text string) error {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line(map[string]any{"type": role, "sessionId": id, "text": text}))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
