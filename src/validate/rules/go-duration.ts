/**
 * Durations as Argo parses them with Go: `time.ParseDuration` (`90s`, `1h30m`, `1.5h`; `0` alone), and
 * Argo's `ParseStringToDuration` for suspend and retry fields, which also takes a bare integer as seconds.
 */

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;

/** True when Go's `time.ParseDuration` accepts the text. */
export const isGoDuration = (text: string): boolean => text === '0' || GO_DURATION.test(text);

/** True when Argo's `ParseStringToDuration` accepts the text: a bare integer (seconds) or a Go duration. */
export const isArgoDuration = (text: string): boolean => /^\d+$/.test(text) || isGoDuration(text);
