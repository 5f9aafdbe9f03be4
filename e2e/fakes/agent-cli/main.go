// Command agent-cli stands in for every agent CLI a direct step runs (claude, codex, cursor-agent, opencode,
// gemini; e2e/images.yaml puts it on the CLI images' PATH under each name). It takes the command line the
// step gives it as that CLI's parser would (invocation.go), starts or resumes the session the step asked
// for in the CLI's own store on the workspace (sessions.go), prints the CLI's JSON (output.go), and does
// an agent's work: a commit on the task branch, pushed to the fake GitHub with the step's installation
// token. It reports its run to the harness and waits there until the scenario says the agent is done
// (exit 0) or failed; then it ends with that exit code. It also probes what a prompt-injected CLI could
// reach: a service-account token in its container, a patch of its play through the API server.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"cdk8s-agent-play/e2e/internal/fakegithub"
)

// harness is where the CLI reports its run and gets its exit code (the fake GitHub's agents endpoint). It
// tells the CLI's pod by its uid, which it looks up by the name the CLI reports: a successor play's pods
// have the names of its predecessor's.
type harness interface {
	Start(run fakegithub.AgentRun) (namespace, podUID string, err error)
	Wait(podUID string, probe fakegithub.Probe) (exit int, err error)
}

// worker does the agent's work in its checkout and probes its container.
type worker interface {
	Work(message string) (commit string, err error)
	Probe(namespace, workflow string) (tokenFile bool, apiStatus int)
}

func main() {
	env := os.Getenv
	os.Exit(run(filepath.Base(os.Args[0]), os.Args[1:], env, os.Stdout, os.Stderr, newHarnessClient(env), hostWorker{env: env}))
}

// run is the CLI: the exit code it ends with.
func run(cli string, args []string, env func(string) string, stdout, stderr io.Writer, h harness, w worker) int {
	inv, err := parse(cli, args)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if key := grammars[cli].apiKey; key != "" && env(key) == "" {
		fmt.Fprintf(stderr, "error: %s: no API key (%s is not set)\n", cli, key)
		return 1
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	session, err := openSession(env, inv, cwd)
	if err != nil {
		// A lost session reports none, as the real CLIs fail before they announce one.
		fmt.Fprintf(stderr, "error: %s: %v\n", cli, err)
		return 1
	}
	fmt.Fprint(stdout, announcement(inv, session))
	mode := "spawn"
	if inv.resume {
		mode = "resume"
	}
	pod, _ := os.Hostname()
	if h := env("HOSTNAME"); h != "" {
		pod = h
	}
	r := fakegithub.AgentRun{
		Pod: pod, Workflow: env("WORKFLOW_NAME"), Task: env("TASK_ID"), Stage: env("STAGE"), Agent: env("AGENT"),
		CLI: env("CLI"), Round: env("ROUND"), Mode: mode, Session: session,
	}
	namespace, podUID, err := h.Start(r)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s: the harness: %v\n", cli, err)
		return 1
	}
	var probe fakegithub.Probe
	probe.TokenFile, probe.APIStatus = w.Probe(namespace, r.Workflow)
	message := fmt.Sprintf("%s: %s, round %s (%s session %s)", r.Agent, r.Stage, r.Round, mode, session)
	if probe.Commit, err = w.Work(message); err != nil {
		probe.Error = err.Error()
		fmt.Fprintf(stderr, "error: %s: %v\n", cli, err)
	}
	code, err := h.Wait(podUID, probe)
	if err != nil {
		fmt.Fprintf(stderr, "error: %s: the harness: %v\n", cli, err)
		return 1
	}
	if probe.Error != "" && code == 0 {
		code = 1
	}
	answer := fmt.Sprintf("%s did the %s stage of task %s (round %s): commit %s.", r.Agent, r.Stage, r.Task, r.Round, probe.Commit)
	if code != 0 {
		answer = fmt.Sprintf("%s could not finish the %s stage of task %s (round %s).", r.Agent, r.Stage, r.Task, r.Round)
	}
	if err := appendTurn(sessionFile(env, cli, session, cwd), "assistant", session, answer); err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	fmt.Fprint(stdout, result(inv, session, answer, code == 0))
	return code
}
