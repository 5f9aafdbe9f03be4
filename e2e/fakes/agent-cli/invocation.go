package main

import (
	"fmt"
	"regexp"
	"strings"
)

// invocation is what the direct step asked of the CLI: a new session or the resumption of one.
type invocation struct {
	// cli is the program's name (claude, codex, cursor-agent, opencode, gemini).
	cli string
	// resume is set when the step resumes session; otherwise session is the id chosen up front (claude's
	// --session-id) or "" (the CLI makes one).
	resume  bool
	session string
	model   string
	prompt  string
}

// grammar is one CLI's non-interactive command line as its own parser takes it (docs/executors.md names the
// source of each; the direct step's contract tests, test/direct-agent-script.test.ts, use the same shapes):
// a leading subcommand, flags with and without values, the flag or subcommand that resumes, the flags
// whose value must be given (a real CLI needs them for a non-interactive JSON run), where the prompt is.
type grammar struct {
	subcommand string
	booleans   []string
	values     []string
	// resumeFlag resumes the session its value names (--resume, --session); resumeSubcommand is codex's
	// `resume <id>` after the options.
	resumeFlag, resumeSubcommand string
	// chosenFlag is claude's --session-id: a new session with the id the step chose.
	chosenFlag string
	// required are flags that must be given, with the value each must have ("" any).
	required map[string]string
	// promptFlag is gemini's -p <prompt>; without it the prompt is the last argument.
	promptFlag string
	// apiKey is the variable the CLI reads its key from ("": any, opencode's is its provider's).
	apiKey string
}

var grammars = map[string]grammar{
	"claude": {
		booleans: []string{"-p"}, values: []string{"--output-format", "--model", "--append-system-prompt", "--permission-mode", "--resume", "--session-id"},
		resumeFlag: "--resume", chosenFlag: "--session-id",
		required: map[string]string{"-p": "", "--output-format": "json", "--model": "", "--permission-mode": "bypassPermissions"},
		apiKey:   "ANTHROPIC_API_KEY",
	},
	"codex": {
		subcommand: "exec", booleans: []string{"--json"}, values: []string{"--sandbox", "--model"},
		resumeSubcommand: "resume",
		required:         map[string]string{"--json": "", "--sandbox": "workspace-write", "--model": ""},
		apiKey:           "CODEX_API_KEY",
	},
	"cursor-agent": {
		booleans: []string{"-p", "--trust", "--force"}, values: []string{"--output-format", "--model", "--resume"},
		resumeFlag: "--resume",
		required:   map[string]string{"-p": "", "--output-format": "json", "--trust": "", "--force": "", "--model": ""},
		apiKey:     "CURSOR_API_KEY",
	},
	"opencode": {
		subcommand: "run", values: []string{"--format", "--session", "--model"},
		resumeFlag: "--session",
		required:   map[string]string{"--format": "json", "--model": ""},
	},
	"gemini": {
		values:     []string{"--output-format", "--model", "--approval-mode", "--resume", "-p"},
		resumeFlag: "--resume", promptFlag: "-p",
		required: map[string]string{"--output-format": "stream-json", "--model": "", "--approval-mode": "yolo", "-p": ""},
		apiKey:   "GEMINI_API_KEY",
	},
}

// uuidPattern is claude's session id: --session-id takes a UUID only.
var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parse reads a CLI's arguments as its parser does: an unknown flag, a missing value or a required flag
// left out is an error (gemini's and codex's parsers are strict; the step must give what a JSON run needs).
func parse(cli string, args []string) (*invocation, error) {
	g, ok := grammars[cli]
	if !ok {
		return nil, fmt.Errorf("the fake agent CLI does not stand for %q", cli)
	}
	inv := &invocation{cli: cli}
	if g.subcommand != "" {
		if len(args) == 0 || args[0] != g.subcommand {
			return nil, fmt.Errorf("%s: expected the subcommand %q first", cli, g.subcommand)
		}
		args = args[1:]
	}
	given := map[string]string{}
	var positionals []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			positionals = append(positionals, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case contains(g.booleans, name) && !hasValue:
			given[name] = ""
		case contains(g.values, name):
			if !hasValue {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("%s: %s needs a value", cli, name)
				}
				i++
				value = args[i]
			}
			given[name] = value
		default:
			return nil, fmt.Errorf("%s: unknown argument %s", cli, a)
		}
	}
	for flag, want := range g.required {
		got, ok := given[flag]
		if !ok {
			return nil, fmt.Errorf("%s: %s is required for a non-interactive JSON run", cli, flag)
		}
		if want != "" && got != want {
			return nil, fmt.Errorf("%s: %s %q, expected %q", cli, flag, got, want)
		}
	}
	inv.model = given["--model"]
	if g.resumeSubcommand != "" && len(positionals) > 0 && positionals[0] == g.resumeSubcommand {
		if len(positionals) < 2 {
			return nil, fmt.Errorf("%s: %s needs a session id", cli, g.resumeSubcommand)
		}
		inv.resume, inv.session = true, positionals[1]
		positionals = positionals[2:]
	}
	if id, ok := given[g.resumeFlag]; ok && g.resumeFlag != "" {
		inv.resume, inv.session = true, id
	}
	if id, ok := given[g.chosenFlag]; ok && g.chosenFlag != "" {
		if inv.resume {
			return nil, fmt.Errorf("%s: %s and %s together", cli, g.chosenFlag, g.resumeFlag)
		}
		if !uuidPattern.MatchString(id) {
			return nil, fmt.Errorf("%s: %s %q is not a UUID", cli, g.chosenFlag, id)
		}
		inv.session = id
	}
	if g.promptFlag != "" {
		inv.prompt = given[g.promptFlag]
		if len(positionals) > 0 {
			return nil, fmt.Errorf("%s: unexpected argument %q", cli, positionals[0])
		}
	} else {
		if len(positionals) != 1 {
			return nil, fmt.Errorf("%s: expected one prompt argument, got %d", cli, len(positionals))
		}
		inv.prompt = positionals[0]
	}
	if strings.TrimSpace(inv.prompt) == "" {
		return nil, fmt.Errorf("%s: the prompt is empty", cli)
	}
	return inv, nil
}
