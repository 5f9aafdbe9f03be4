package main

import (
	"encoding/json"
	"time"
)

// What each CLI prints in its JSON mode, in the shapes of the direct step's contract tests
// (test/direct-agent-script.test.ts, SAMPLE_OUTPUTS) and docs/executors.md: the events that announce the
// session as the CLI starts (the stream formats), and those that end the run with the answer.

// line is one JSON line of output.
func line(v any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

// announcement is what the CLI prints as it starts: the stream formats name the session at once (the
// direct step's TERM trap reads it); claude and cursor print one object at the end only.
func announcement(inv *invocation, session string) string {
	ts := time.Now().UnixMilli()
	switch inv.cli {
	case "codex":
		return line(map[string]any{"type": "thread.started", "thread_id": session}) + line(map[string]any{"type": "turn.started"})
	case "opencode":
		return line(map[string]any{"type": "step_start", "timestamp": ts, "sessionID": session, "part": map[string]any{"type": "step-start"}})
	case "gemini":
		return line(map[string]any{"type": "init", "timestamp": time.Now().UTC().Format(time.RFC3339), "session_id": session, "model": inv.model}) +
			line(map[string]any{"type": "message", "role": "user", "content": inv.prompt})
	}
	return ""
}

// result is what the CLI prints as it ends: the answer, and the session for the formats that name it at
// the end; ok tells a success from an error.
func result(inv *invocation, session, answer string, ok bool) string {
	ts := time.Now().UnixMilli()
	switch inv.cli {
	case "claude", "cursor-agent":
		subtype := "success"
		if !ok {
			subtype = "error_during_execution"
		}
		return line(map[string]any{"type": "result", "subtype": subtype, "is_error": !ok, "result": answer, "session_id": session})
	case "codex":
		end := map[string]any{"type": "turn.completed", "usage": map[string]any{}}
		if !ok {
			end = map[string]any{"type": "turn.failed", "error": map[string]any{"message": answer}}
		}
		return line(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_1", "type": "agent_message", "text": answer}}) + line(end)
	case "opencode":
		return line(map[string]any{"type": "text", "timestamp": ts, "sessionID": session, "part": map[string]any{"type": "text", "text": answer}}) +
			line(map[string]any{"type": "step_finish", "timestamp": ts, "sessionID": session, "part": map[string]any{"type": "step-finish"}})
	case "gemini":
		status := "success"
		if !ok {
			status = "error"
		}
		return line(map[string]any{"type": "message", "timestamp": time.Now().UTC().Format(time.RFC3339), "role": "assistant", "content": answer, "delta": true}) +
			line(map[string]any{"type": "result", "timestamp": time.Now().UTC().Format(time.RFC3339), "status": status, "stats": map[string]any{}})
	}
	return ""
}
