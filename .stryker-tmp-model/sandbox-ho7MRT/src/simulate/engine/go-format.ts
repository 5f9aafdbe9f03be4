/**
 * How Go writes values as text, for the values our engines meet: JSON numbers (Go `float64`), template
 * integers (Go `int`, held here as `bigint`), strings, booleans, JSON objects and arrays.
 *
 * - `formatGoFloat(n, 'f')` is `strconv.FormatFloat(n, 'f', -1, 64)` (gjson's `Result.String()` of a number).
 * - `formatGoFloat(n, 'g')` is `strconv.FormatFloat(n, 'g', -1, 64)`, which is also `fmt`'s `%v` of a
 *   float64: shortest digits, and the exponent form when the exponent is < -4 or >= 6 (Go's
 *   `ftoa.go`: "if precision was the shortest possible, use precision 6 for this decision"). So a JSON
 *   number 1234567 prints as `1.234567e+06` in a Go template, as it does in Argo Events.
 * - `goJson` is `encoding/json.Marshal`.
 *
 * The shortest round-trip digits come from JavaScript's `Number.prototype.toExponential()`, which, like
 * Go's shortest formatting, yields the fewest digits that read back as the same double.
 */
// @ts-nocheck


/** Shortest decimal digits and decimal exponent of a finite non-zero number: 1234.5 -> "12345", 3. */
function shortestDigits(value: number): { digits: string; exponent: number } {
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e');
  return { digits: mantissa.replace('.', ''), exponent: Number(exponent) };
}

function fixedNotation(digits: string, exponent: number): string {
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerDigits = exponent + 1;
  if (digits.length <= integerDigits) return digits + '0'.repeat(integerDigits - digits.length);
  return `${digits.slice(0, integerDigits)}.${digits.slice(integerDigits)}`;
}

function exponentNotation(digits: string, exponent: number): string {
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** `strconv.FormatFloat(value, format, -1, 64)` for format `f` or `g`. */
export function formatGoFloat(value: number, format: 'f' | 'g'): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (value === 0) return `${sign}0`;
  const { digits, exponent } = shortestDigits(value);
  const useExponent = format === 'g' && (exponent < -4 || exponent >= 6);
  return sign + (useExponent ? exponentNotation(digits, exponent) : fixedNotation(digits, exponent));
}

/** Go's type name for a value, as `fmt` and template errors spell it. */
export function goTypeName(value: unknown): string {
  if (value === undefined || value === null) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Orders strings by code point, as Go orders strings (byte-wise on UTF-8). */
export function compareCodePoints(left: string, right: string): number {
  const a = Array.from(left);
  const b = Array.from(right);
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = a[index].codePointAt(0)! - b[index].codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * A JSON string as Go's encoder writes it. JavaScript's `JSON.stringify` already escapes what Go escapes
 * (`"`, `\`, control characters, with `\b \f \n \r \t` short forms as Go 1.22+ writes them); Go's default
 * HTML-safe mode also escapes `<`, `>`, `&`, U+2028 and U+2029.
 */
function goJsonString(text: string): string {
  return JSON.stringify(text).replace(HTML_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A float64 as Go's encoder writes it: like `strconv` `'f'`, switching to `'e'` below 1e-6 and from 1e21,
 * with `e-07` shortened to `e-7`. JavaScript's number-to-string uses the same thresholds and spelling, so only
 * negative zero (Go writes `-0`) needs care.
 */
function goJsonNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`json: unsupported value: ${value}`);
  return Object.is(value, -0) ? '-0' : String(value);
}

/**
 * Go's `encoding/json.Marshal` of a JSON-like value: no spaces, object keys sorted (Go sorts the keys of a
 * `map[string]interface{}`), HTML-safe string escaping. `undefined` (Go's nil) is `null`.
 */
export function goJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return goJsonNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareCodePoints);
    return `{${keys.map((key) => `${goJsonString(key)}:${goJson(record[key])}`).join(',')}}`;
  }
  throw new Error(`json: unsupported type: ${typeof value}`);
}

/** Go's `unicode.IsSpace`: ASCII spaces, NEL, NBSP and the other Unicode White_Space characters. */
export const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** `strings.TrimSpace` (JavaScript's `trim` also strips U+FEFF and keeps U+0085; Go does the opposite). */
export function goTrimSpace(text: string): string {
  return text.replace(new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'gu'), '');
}
