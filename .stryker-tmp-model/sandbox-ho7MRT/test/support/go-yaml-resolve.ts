/**
 * What Go's yaml.v2 makes of a plain (unquoted) scalar: a string, or something else (a bool, null, an int, a
 * float, a timestamp, the merge key). A port of `resolve` in goyaml.v2/resolve.go of sigs.k8s.io/yaml (what
 * kubectl, client-go and ArgoCD read manifests with), with Go's `strconv.ParseInt(s, 0, 64)`,
 * `ParseUint`, `ParseFloat` and `time.Parse` written as the syntax they accept. Ranges are not checked: a
 * number too large for Go counts as a number here, which only makes the tests that use this stricter.
 *
 * Written apart from the YAML writer (constructs/model/yaml-text.ts) so that it can judge it: the writer must
 * never write plainly what this does not call a string.
 */
// @ts-nocheck


const MAPPED = new Set([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'],
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'],
  ...['', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF'],
  ...['+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<'],
]);

/** `strconv.ParseInt(s, 0, 64)`'s syntax (after resolve dropped every `_`): a sign, then a base prefix or none. */
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
/** `strconv.ParseInt(s, 2, 64)`'s syntax. */
const GO_BINARY = /^[-+]?[01]+$/;
/** resolve.go's `yamlStyleFloat`. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** `strconv.ParseFloat` of a text starting with `.`: decimal digits, then an exponent or none. */
const GO_DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
/** The `time.Parse` layouts resolve.go tries (`2006-1-2T15:4:5.999999999Z07:00`, with `t`, with a space, a date). */
const GO_TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?)?$/;

/** Whether Go's yaml.v2 reads the plain scalar `text` as a string. */
export function goReadsPlainAsString(text: string): boolean {
  if (MAPPED.has(text)) return false;
  const first = text[0];
  if (first === '.') return !GO_DOT_FLOAT.test(text);
  if (!/[-+0-9]/.test(first)) return true;
  if (GO_TIMESTAMP.test(text)) return false;
  const plain = text.replace(/_/g, '');
  if (GO_INT.test(plain) || YAML_STYLE_FLOAT.test(plain)) return false;
  if (plain.startsWith('0b') && GO_BINARY.test(plain.slice(2))) return false;
  if (plain.startsWith('-0b') && GO_BINARY.test(`-${plain.slice(3)}`)) return false;
  return true;
}
