/**
 * Durations as Argo parses them with Go: `time.ParseDuration` (`90s`, `1h30m`, `1.5h`; `0` alone), and
 * Argo's `ParseStringToDuration` for suspend and retry fields, which also takes a bare integer as seconds.
 *
 * `goDurationNanoseconds` follows Go's `time.ParseDuration` step by step (src/time/format.go), overflow
 * checks included, so `2562048h` is refused as Go refuses it; test/golden/duration.json holds Go's answers.
 */
// @ts-nocheck


const NANOSECONDS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const LIMIT = 1n << 63n;
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';

/** Go's `leadingInt`: the digits at the start, or undefined on overflow. */
function leadingInt(text: string): { value: bigint; rest: string } | undefined {
  let index = 0;
  let value = 0n;
  for (; isDigit(text[index]); index++) {
    if (value > LIMIT / 10n) return undefined;
    value = value * 10n + BigInt(text.charCodeAt(index) - 48);
    if (value > LIMIT) return undefined;
  }
  return { value, rest: text.slice(index) };
}

/** Go's `leadingFraction`: digits after the point; those past the precision are skipped, not refused. */
function leadingFraction(text: string): { value: bigint; scale: number; rest: string } {
  let index = 0;
  let value = 0n;
  let scale = 1;
  let overflow = false;
  for (; isDigit(text[index]); index++) {
    if (overflow) continue;
    if (value > (LIMIT - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const next = value * 10n + BigInt(text.charCodeAt(index) - 48);
    if (next > LIMIT) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  return { value, scale, rest: text.slice(index) };
}

/** One `<number><unit>` element in nanoseconds, with the text after it; undefined where Go fails. */
function element(text: string): { nanoseconds: bigint; rest: string } | undefined {
  if (!(text[0] === '.' || isDigit(text[0]))) return undefined;
  const whole = leadingInt(text);
  if (!whole) return undefined;
  const hasWhole = whole.rest.length !== text.length;
  let rest = whole.rest;
  let fraction = { value: 0n, scale: 1, rest };
  let hasFraction = false;
  if (rest.startsWith('.')) {
    fraction = leadingFraction(rest.slice(1));
    hasFraction = fraction.rest.length !== rest.length - 1;
    rest = fraction.rest;
  }
  if (!hasWhole && !hasFraction) return undefined;
  let unitLength = 0;
  while (unitLength < rest.length && !(rest[unitLength] === '.' || isDigit(rest[unitLength]))) unitLength++;
  const unit = NANOSECONDS_PER_UNIT[rest.slice(0, unitLength)];
  if (unitLength === 0 || unit === undefined) return undefined;
  if (whole.value > LIMIT / unit) return undefined;
  let nanoseconds = whole.value * unit;
  if (fraction.value > 0n) {
    // Go computes this part in float64 and truncates it: uint64(float64(f) * (float64(unit) / scale)).
    nanoseconds += BigInt(Math.trunc(Number(fraction.value) * (Number(unit) / fraction.scale)));
    if (nanoseconds > LIMIT) return undefined;
  }
  return { nanoseconds, rest: rest.slice(unitLength) };
}

/** Go's `time.ParseDuration(text)` in nanoseconds, or undefined when Go returns an error. */
export function goDurationNanoseconds(text: string): bigint | undefined {
  let rest = text;
  let negative = false;
  if (rest[0] === '-' || rest[0] === '+') {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const next = element(rest);
    if (!next) return undefined;
    total += next.nanoseconds;
    if (total > LIMIT) return undefined;
    rest = next.rest;
  }
  if (negative) return -total;
  return total > LIMIT - 1n ? undefined : total;
}

/** True when Go's `time.ParseDuration` accepts the text. */
export const isGoDuration = (text: string): boolean => goDurationNanoseconds(text) !== undefined;

/** True when Argo's `ParseStringToDuration` accepts the text: a bare integer (seconds) or a Go duration. */
export const isArgoDuration = (text: string): boolean => /^\d+$/.test(text) || isGoDuration(text);
