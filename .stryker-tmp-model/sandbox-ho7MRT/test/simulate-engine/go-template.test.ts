// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { renderGoTemplate } from '../../src/simulate/engine/go-template';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';
import { pullRequestEventData, TASK_LABELS } from './fixtures';

/** Argo Events renders `dataTemplate` with `.Input` = the event data. */
function render(template: string, data: unknown = pullRequestEventData({ labels: TASK_LABELS })): string {
  return renderGoTemplate(template, { Input: data });
}

const TASK_ID_TEMPLATE = `{{- $task := "" -}}
{{- range .Input.body.pull_request.labels -}}
  {{- if and (eq $task "") (regexMatch "^task-[0-9]+$" .name) -}}{{- $task = trimPrefix "task-" .name -}}{{- end -}}
{{- end -}}
{{- if eq $task "" -}}{{- $task = regexReplaceAll "^feature/task-([0-9]+)(-.*)?$" (regexFind "^feature/task-[0-9]+(-.*)?$" .Input.body.pull_request.head.ref) "\${1}" -}}{{- end -}}
{{- $task -}}`;

describe('the task id template', () => {
  it('takes the task label first', () => {
    expect(render(TASK_ID_TEMPLATE, pullRequestEventData({ labels: TASK_LABELS, headRef: 'feature/task-9-implementation' }))).toBe('5');
  });

  it('falls back to the branch', () => {
    expect(render(TASK_ID_TEMPLATE, pullRequestEventData({ labels: [], headRef: 'feature/task-7-implementation' }))).toBe('7');
    expect(render(TASK_ID_TEMPLATE, pullRequestEventData({ labels: ['ready-for-qa'], headRef: 'feature/task-12' }))).toBe('12');
  });

  it('gives "" when neither names a task', () => {
    expect(render(TASK_ID_TEMPLATE, pullRequestEventData({ labels: ['ready-for-qa', 'task-x'], headRef: 'fix/task-7' }))).toBe('');
  });
});

describe('printing like Go', () => {
  it('prints strings raw, JSON numbers as float64 %v, integers in decimal, booleans as words', () => {
    expect(render('{{ .Input.body.action }} #{{ .Input.body.number }} merged={{ .Input.body.pull_request.merged }}')).toBe(
      'opened #2 merged=false',
    );
    // A JSON number is a float64: from 1e6 up Go prints it with an exponent, as Argo Events does.
    expect(render('{{ .Input.body.pull_request.id }}')).toBe('2.79147437e+08');
    expect(render('{{ .Input.body.pull_request.id | toJson }}')).toBe('279147437');
    expect(render('{{ len .Input.body.pull_request.labels }} {{ 42 }} {{ 1.50 }} {{ -3 }}')).toBe('2 42 1.5 -3');
  });

  it('prints <no value> for a missing key, a JSON null, and a field of a missing key', () => {
    expect(render('{{ .Input.body.missing }}|{{ .Input.body.pull_request.milestone }}|{{ .Input.missing.deeper.still }}')).toBe(
      '<no value>|<no value>|<no value>',
    );
  });

  it('reads keys with dashes through index', () => {
    expect(render('{{ index .Input.body "X-GitHub-Event" }}/{{ index .Input.headers "X-Github-Event" 0 }}')).toBe(
      'pull_request/pull_request',
    );
    expect(render('{{ index .Input.body "X-Missing" }}')).toBe('<no value>');
  });

  it('writes toJson as encoding/json does: sorted keys, no spaces, HTML escaped', () => {
    const data = { body: { pull_request: { number: 7, html_url: 'https://x/<1>&', labels: [{ name: 'task-5', id: 1 }] } } };
    expect(
      render('{"prNumber":"{{ .Input.body.pull_request.number }}","prUrl":{{ .Input.body.pull_request.html_url | toJson }}}', data),
    ).toBe('{"prNumber":"7","prUrl":"https://x/\\u003c1\\u003e\\u0026"}');
    expect(render('{{ toJson .Input.body.pull_request.labels }}', data)).toBe('[{"id":1,"name":"task-5"}]');
    expect(render('{{ toJson .Input.missing }}', data)).toBe('null');
  });
});

describe('actions and control flow', () => {
  it('trims white space at {{- and -}}, and drops comments', () => {
    expect(render('a  {{- " b " -}}  c')).toBe('a b c');
    expect(render('a {{/* note */}} b {{- /* trimmed */ -}} c')).toBe('a  bc');
    expect(render('{{-3}}')).toBe('-3');
  });

  it('runs if / else if / else', () => {
    const template =
      '{{ if eq .Input.body.action "closed" }}closed{{ else if eq .Input.body.action "opened" }}opened{{ else }}other{{ end }}';
    expect(render(template)).toBe('opened');
  });

  it('ranges with . rebound, with $i, $e, and runs else on an empty or missing list', () => {
    expect(render('{{ range .Input.body.pull_request.labels }}[{{ .name }}]{{ end }}')).toBe('[task-5][ready-for-qa]');
    expect(render('{{ range $i, $e := .Input.body.pull_request.labels }}{{ $i }}={{ $e.name }};{{ end }}')).toBe(
      '0=task-5;1=ready-for-qa;',
    );
    expect(render('{{ range $e := .Input.body.pull_request.labels }}{{ $e.name }} {{ end }}')).toBe('task-5 ready-for-qa ');
    expect(render('{{ range .Input.body.pull_request.assignees }}x{{ else }}none{{ end }}')).toBe('none');
    expect(render('{{ range .Input.missing }}x{{ else }}none{{ end }}')).toBe('none');
  });

  it('assigns outer variables from inside blocks, and ends declarations with the block', () => {
    expect(render('{{ $x := "a" }}{{ if true }}{{ $x = "b" }}{{ $y := "c" }}{{ end }}{{ $x }}')).toBe('b');
    expect(() => render('{{ if true }}{{ $y := "c" }}{{ end }}{{ $y }}')).toThrow('undefined variable "$y"');
  });

  it('short-circuits and/or and returns the deciding operand', () => {
    expect(render('{{ or .Input.missing "fallback" }}|{{ and "a" "" }}|{{ and "a" "b" }}')).toBe('fallback||b');
    expect(render('{{ or true (index .Input.missing "x") }}')).toBe('true');
    expect(render('{{ if not .Input.missing }}absent{{ end }}')).toBe('absent');
  });

  it('pipes the previous result as the last argument', () => {
    expect(render('{{ .Input.body.pull_request.head.ref | trimPrefix "feature/" | upper }}')).toBe('TASK-5-IMPLEMENTATION');
    expect(render('{{ "x" | printf "%s-%s" "a" }}')).toBe('a-x');
  });

  it('reads strings with Go escapes and raw strings', () => {
    expect(render('{{ "a\\tb\\u00e9\\"" }}|{{ `raw\\n` }}')).toBe('a\tbé"|raw\\n');
  });
});

describe('Sprig and builtin functions', () => {
  it('lower, upper, trim, trimSuffix, hasPrefix, default', () => {
    expect(
      render(
        '{{ lower "ÀB" }} {{ upper "ab" }} [{{ trim "\\u00a0 x \\n" }}] {{ trimSuffix "-implementation" .Input.body.pull_request.head.ref }}',
      ),
    ).toBe('àb AB [x] feature/task-5');
    expect(
      render(
        '{{ hasPrefix "feature/" .Input.body.pull_request.head.ref }} {{ .Input.missing | default "d" }} {{ default "d" "given" }} {{ default "d" 0 }}',
      ),
    ).toBe('true d given d');
  });

  it('regexMatch, regexFind, regexReplaceAll with Go semantics', () => {
    expect(render('{{ regexMatch "(?i)^TASK-" "task-5" }} {{ regexFind "[0-9]+" "a12b3" }} {{ regexReplaceAll "a*" "baaac" "X" }}')).toBe(
      'true 12 XbXcX',
    );
  });

  it("printf with %s, %d, %v, and Go's markers for wrong verbs and argument counts", () => {
    expect(render('{{ printf "%s/%d/%v/%v%%" "a" 3 2.5 true }}')).toBe('a/3/2.5/true%');
    expect(render('{{ printf "%d" .Input.body.number }}')).toBe('%!d(float64=2)');
    expect(render('{{ printf "%s %s" "a" }}|{{ printf "%s" "a" "b" }}|{{ printf "%v %s" .Input.missing .Input.missing }}')).toBe(
      'a %!s(MISSING)|a%!(EXTRA string=b)|<nil> %!s(<nil>)',
    );
  });

  it('eq and ne compare like Go: a JSON number is a float64, not an int', () => {
    expect(
      render(
        '{{ eq .Input.body.action "opened" "closed" }} {{ ne .Input.body.action "opened" }} {{ eq .Input.missing "x" }} {{ eq .Input.body.number 2.0 }}',
      ),
    ).toBe('true false false true');
    expect(() => render('{{ eq .Input.body.number 2 }}')).toThrow('incompatible types for comparison: float64 and int');
  });
});

describe('Go errors are plain errors with a position', () => {
  it.each([
    ['{{ .Input.body.action', 'unclosed action'],
    ['{{ .Input.body.X-GitHub-Event }}', 'bad character "-"'],
    ['{{ $undefined }}', 'undefined variable "$undefined"'],
    ['{{ end }}', 'unexpected {{end}}'],
    ['{{ if true }}x', 'unexpected EOF'],
    ['{{ .Input | "x" }}', 'non executable command in pipeline stage 2'],
    ['{{ (eq 1 1)(eq 1 1) }}', 'unexpected <(> in operand'],
    ['{{ "unterminated }}', 'unterminated quoted string'],
    ['{{ .Input.body.pull_request.milestone.title }}', 'nil pointer evaluating interface {}.title'],
    ['{{ .Input.body.action.length }}', "can't evaluate field length in type string"],
    ['{{ lower .Input.body.number }}', 'wrong type for value; expected string; got float64'],
    ['{{ lower .Input.missing }}', 'invalid value; expected string'],
    ['{{ lower 5 }}', 'expected string; found 5'],
    ['{{ len .Input.missing }}', 'len of nil pointer'],
    ['{{ index .Input.body.pull_request.labels 5 }}', 'index out of range: 5'],
    ['{{ index .Input.missing "x" }}', 'index of untyped nil'],
    ['{{ eq .Input.body .Input.body }}', 'non-comparable'],
    ['{{ trimPrefix "a" }}', 'wrong number of args for trimPrefix: want 2 got 1'],
    ['{{ range .Input.body.number }}{{ end }}', "range can't iterate over 2"],
    ['{{ .Input.body.action "x" }}', 'action is not a method but has arguments'],
    ['{{ "a" "b" }}', "can't give argument to non-function"],
  ])('%s', (template, message) => {
    expect(() => render(template)).toThrow(message);
    expect(() => render(template)).not.toThrow(UnsupportedFeatureError);
    expect(() => render(template)).toThrow(/template: param:\d+:\d+: /);
  });
});

describe('renderGoTemplate refuses what the simulator does not implement', () => {
  it.each([
    ['{{ sha256sum "x" }}', 'the function "sha256sum"'],
    ['{{ lt 1 2 }}', 'the function "lt"'],
    ['{{ with .Input }}x{{ end }}', '{{with}}'],
    ['{{ define "x" }}{{ end }}', '{{define}}'],
    ['{{ template "x" }}', '{{template}}'],
    ['{{ block "x" . }}{{ end }}', '{{block}}'],
    ['{{ range .Input.body.pull_request.labels }}{{ break }}{{ end }}', '{{break}}'],
    ['{{ range .Input.body.pull_request.labels }}{{ continue }}{{ end }}', '{{continue}}'],
    ['{{ .Input.body.pull_request.labels }}', 'printing a list'],
    ['{{ .Input.body.pull_request.head }}', 'printing a map'],
    ['{{ range .Input.body.pull_request.head }}{{ end }}', 'range over a map'],
    ['{{ range 3 }}{{ end }}', 'range over an integer'],
    ['{{ printf "%5s" "x" }}', 'only %s, %d, %v'],
    ['{{ printf "%v" .Input.body.pull_request.labels }}', 'printf of a map or a list'],
    ['{{ 0x1F }}', 'a hex, octal or binary number'],
    ['{{ 010 }}', 'octal number'],
    ["{{ 'a' }}", 'a character constant'],
    ['{{ index .Input.body.action 0 }}', 'index of a string'],
    ['{{ upper "ß" }}', 'upper of "ß"'],
    ['{{ .Input.body.action | }}', 'ending in "|"'],
  ])('%s', (template, feature) => {
    expect(() => render(template)).toThrow(UnsupportedFeatureError);
    expect(() => render(template)).toThrow(feature);
  });
});
