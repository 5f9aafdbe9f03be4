package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdk8s-agent-play/e2e/internal/fakegithub"
)

const (
	chosen = "c0ffee00-0000-4000-8000-000000000001"
	prompt = "Task 5 of the repository 5dlabs/cto-play-test, round 1, stage implementation."
)

// The argument vectors the direct step gives each CLI (constructs/model/executors.ts, placeholders filled),
// a new session's and a resumed one's.
var vectors = map[string][2][]string{
	"claude": {
		{"-p", "--output-format", "json", "--session-id", chosen, "--model", "m", "--append-system-prompt", "sys", "--permission-mode", "bypassPermissions", prompt},
		{"-p", "--output-format", "json", "--resume", "S", "--model", "m", "--append-system-prompt", "sys", "--permission-mode", "bypassPermissions", prompt},
	},
	"codex": {
		{"exec", "--json", "--sandbox", "workspace-write", "--model", "m", prompt},
		{"exec", "--json", "--sandbox", "workspace-write", "--model", "m", "resume", "S", prompt},
	},
	"cursor-agent": {
		{"-p", "--output-format", "json", "--trust", "--force", "--model", "m", prompt},
		{"-p", "--output-format", "json", "--trust", "--force", "--model", "m", "--resume", "S", prompt},
	},
	"opencode": {
		{"run", "--format", "json", "--model", "p/m", prompt},
		{"run", "--format", "json", "--session", "S", "--model", "p/m", prompt},
	},
	"gemini": {
		{"--output-format=stream-json", "--model", "m", "--approval-mode", "yolo", "-p", prompt},
		{"--resume", "S", "--output-format=stream-json", "--model", "m", "--approval-mode", "yolo", "-p", prompt},
	},
}

func TestParseTheStepsVectors(t *testing.T) {
	for cli, v := range vectors {
		spawn, err := parse(cli, v[0])
		if err != nil || spawn.resume || spawn.prompt != prompt {
			t.Errorf("%s spawn: %+v %v", cli, spawn, err)
		}
		if cli == "claude" && spawn.session != chosen {
			t.Errorf("claude keeps the chosen id: %q", spawn.session)
		}
		resume, err := parse(cli, v[1])
		if err != nil || !resume.resume || resume.session != "S" || resume.prompt != prompt {
			t.Errorf("%s resume: %+v %v", cli, resume, err)
		}
	}
}

func TestParseRefusesWhatTheCLIRefuses(t *testing.T) {
	cases := []struct {
		cli  string
		args []string
		want string
	}{
		{"droid", []string{"exec"}, "does not stand for"},
		{"codex", []string{"--json", prompt}, "subcommand"},
		{"gemini", []string{"--output-format=stream-json", "--model", "m", "--approval-mode", "yolo", "--yolo", "-p", prompt}, "unknown argument --yolo"},
		{"claude", []string{"-p", "--output-format", "text", "--model", "m", "--permission-mode", "bypassPermissions", prompt}, `"text", expected "json"`},
		{"cursor-agent", []string{"-p", "--output-format", "json", "--force", "--model", "m", prompt}, "--trust is required"},
		{"opencode", []string{"run", "--format", "json", "--model"}, "needs a value"},
		{"codex", []string{"exec", "--json", "--sandbox", "workspace-write", "--model", "m", "resume"}, "needs a session id"},
		{"claude", []string{"-p", "--output-format", "json", "--session-id", "x", "--model", "m", "--permission-mode", "bypassPermissions", prompt}, "not a UUID"},
		{"claude", []string{"-p", "--output-format", "json", "--session-id", chosen, "--resume", chosen, "--model", "m", "--permission-mode", "bypassPermissions", prompt}, "together"},
		{"cursor-agent", []string{"-p", "--output-format", "json", "--trust", "--force", "--model", "m", prompt, "extra"}, "one prompt argument"},
		{"gemini", []string{"--output-format=stream-json", "--model", "m", "--approval-mode", "yolo", "-p", " "}, "empty"},
		{"gemini", []string{"--output-format=stream-json", "--model", "m", "--approval-mode", "yolo", "-p", prompt, "stray"}, "unexpected argument"},
	}
	for _, c := range cases {
		if _, err := parse(c.cli, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got %v, want %q", c.cli, c.args, err, c.want)
		}
	}
}

// fakeHarness records what the CLI reported and answers with exit (or err); it gives the n-th run's pod
// the uid `uid-n`.
type fakeHarness struct {
	started []fakegithub.AgentRun
	probe   *fakegithub.Probe
	// waitedAs is the pod uid the CLI waited under.
	waitedAs string
	exit     int
	err      error
}

func (h *fakeHarness) Start(r fakegithub.AgentRun) (string, string, error) {
	if h.err != nil {
		return "", "", h.err
	}
	h.started = append(h.started, r)
	return "agents", fmt.Sprintf("uid-%d", len(h.started)), nil
}

func (h *fakeHarness) Wait(podUID string, p fakegithub.Probe) (int, error) {
	h.probe, h.waitedAs = &p, podUID
	return h.exit, nil
}

type fakeWorker struct{ err error }

func (w fakeWorker) Work(string) (string, error) { return "abc123", w.err }
func (fakeWorker) Probe(string, string) (bool, int) {
	return false, 403
}

// cliEnv is the environment of the direct step (the variables the fake reads), with HOME in dir.
func cliEnv(dir string) func(string) string {
	vars := map[string]string{
		"HOME": dir, "WORKFLOW_NAME": "play-x", "TASK_ID": "5", "STAGE": "implementation", "AGENT": "rex", "CLI": "cursor",
		"ROUND": "1", "HOSTNAME": "play-x-agent-1", "ANTHROPIC_API_KEY": "k", "CODEX_API_KEY": "k", "CURSOR_API_KEY": "k", "GEMINI_API_KEY": "k",
	}
	return func(k string) string { return vars[k] }
}

// jsonLines parses the output's lines.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		lines = append(lines, m)
	}
	return lines
}

// reported gives the session id and answer the output names, in the shape of each CLI (the fields the
// direct step's filters read, executors.ts).
func reported(t *testing.T, cli, out string) (string, string) {
	var id, answer string
	for _, m := range jsonLines(t, out) {
		switch {
		case cli == "claude" || cli == "cursor-agent":
			id, answer = m["session_id"].(string), m["result"].(string)
		case cli == "codex" && m["type"] == "thread.started":
			id = m["thread_id"].(string)
		case cli == "codex" && m["type"] == "item.completed":
			answer = m["item"].(map[string]any)["text"].(string)
		case cli == "opencode":
			if id == "" {
				id = m["sessionID"].(string)
			}
			if m["type"] == "text" {
				answer = m["part"].(map[string]any)["text"].(string)
			}
		case cli == "gemini" && m["type"] == "init":
			id = m["session_id"].(string)
		case cli == "gemini" && m["type"] == "message" && m["role"] == "assistant":
			answer = m["content"].(string)
		}
	}
	return id, answer
}

func TestRunStartsThenResumes(t *testing.T) {
	for cli, v := range vectors {
		t.Run(cli, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			env := cliEnv(dir)
			h := &fakeHarness{}
			var out, errb bytes.Buffer
			if code := run(cli, v[0], env, &out, &errb, h, fakeWorker{}); code != 0 {
				t.Fatalf("spawn: exit %d: %s", code, errb.String())
			}
			id, answer := reported(t, cli, out.String())
			if id == "" || !strings.Contains(answer, "commit abc123") {
				t.Fatalf("spawn output: %q", out.String())
			}
			if len(h.started) != 1 || h.started[0].Mode != "spawn" || h.started[0].Session != id || h.started[0].Pod != "play-x-agent-1" {
				t.Fatalf("reported: %+v", h.started)
			}
			if h.probe == nil || h.probe.Commit != "abc123" || h.probe.APIStatus != 403 || h.waitedAs != "uid-1" {
				t.Fatalf("probe: %+v, waited as %q", h.probe, h.waitedAs)
			}
			resume := append([]string{}, v[1]...)
			for i, a := range resume {
				if a == "S" {
					resume[i] = id
				}
			}
			out.Reset()
			h.exit = 4
			if code := run(cli, resume, env, &out, &errb, h, fakeWorker{}); code != 4 {
				t.Fatalf("resume: exit %d, want the harness's 4: %s", code, errb.String())
			}
			if again, answer := reported(t, cli, out.String()); again != id || !strings.Contains(answer, "could not finish") {
				t.Fatalf("resume output: %q", out.String())
			}
			// The same pod name, another pod (a successor play's): the CLI waits as the pod the harness named.
			if len(h.started) != 2 || h.started[1].Mode != "resume" || h.started[1].Session != id || h.waitedAs != "uid-2" {
				t.Fatalf("reported: %+v, waited as %q", h.started, h.waitedAs)
			}
			b, err := os.ReadFile(sessionFile(env, cli, id, dir))
			if err != nil || strings.Count(string(b), "\n") != 4 {
				t.Fatalf("the session holds two runs of two turns: %q %v", b, err)
			}
		})
	}
}

func TestRunFailures(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := cliEnv(dir)
	var out, errb bytes.Buffer
	h := &fakeHarness{}
	// A resume of a session the store does not hold fails before anything is announced or reported.
	if code := run("codex", []string{"exec", "--json", "--sandbox", "workspace-write", "--model", "m", "resume", "lost", prompt}, env, &out, &errb, h, fakeWorker{}); code != 1 || out.Len() != 0 || len(h.started) != 0 {
		t.Fatalf("lost session: exit %d, out %q, reported %v", code, out.String(), h.started)
	}
	if !strings.Contains(errb.String(), "no conversation found") {
		t.Fatalf("stderr: %q", errb.String())
	}
	// A chosen id already in use is refused.
	if code := run("claude", vectors["claude"][0], env, &out, &errb, h, fakeWorker{}); code != 0 {
		t.Fatalf("claude spawn: %d %s", code, errb.String())
	}
	if code := run("claude", vectors["claude"][0], env, &out, &errb, h, fakeWorker{}); code != 1 || !strings.Contains(errb.String(), "already in use") {
		t.Fatalf("claude with an id in use: %d %s", code, errb.String())
	}
	// The claude transcript is where the direct step looks for it.
	if _, err := os.Stat(filepath.Join(dir, ".claude", "projects", projectName.ReplaceAllString(dir, "-"), chosen+".jsonl")); err != nil {
		t.Fatal(err)
	}
	// No API key, a bad command line, a harness out of reach, a push refused.
	noKey := func(k string) string {
		if k == "CURSOR_API_KEY" {
			return ""
		}
		return env(k)
	}
	if code := run("cursor-agent", vectors["cursor-agent"][0], noKey, &out, &errb, h, fakeWorker{}); code != 1 || !strings.Contains(errb.String(), "CURSOR_API_KEY") {
		t.Fatalf("no key: %d", code)
	}
	if code := run("gemini", []string{"--bogus"}, env, &out, &errb, h, fakeWorker{}); code != 2 {
		t.Fatalf("bad command line: %d", code)
	}
	if code := run("opencode", vectors["opencode"][0], env, &out, &errb, &fakeHarness{err: errors.New("refused")}, fakeWorker{}); code != 1 {
		t.Fatalf("harness out of reach: %d", code)
	}
	pushRefused := &fakeHarness{}
	if code := run("opencode", vectors["opencode"][0], env, &out, &errb, pushRefused, fakeWorker{err: errors.New("git push: 403")}); code != 1 || pushRefused.probe.Error == "" {
		t.Fatalf("a refused push fails the run even when the scenario says done: %d %+v", code, pushRefused.probe)
	}
}
