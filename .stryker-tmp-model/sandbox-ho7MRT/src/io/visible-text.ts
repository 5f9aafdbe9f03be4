/**
 * What the command line prints, made visible rather than interpreted: a configuration, a progress record or a
 * manifest can hold ESC, OSC, NUL, a carriage return or a bidirectional control, and printed raw they clear a
 * terminal, retitle it, hide the rest of a line or make a line read in another order (a record could print a
 * green "ALL GOOD" over the flags). Every such character leaves the process as a `\uXXXX` escape.
 *
 * The escape is JSON's own, and our YAML writer (constructs/model/yaml-text.ts) already escapes every one of
 * these characters, so JSON and YAML output keep their values: only text that would have carried the raw
 * character changes.
 */
// @ts-nocheck

import { INVISIBLE_FORMAT, NOT_YAML_PRINTABLE, YAML_1_1_LINE_BREAK } from '../../constructs/model/text-characters';

/** Every character a terminal would act on rather than show: the controls but tab and line feed, and those of text-characters.ts. */
const ACTED_ON = new RegExp(`\\r|${NOT_YAML_PRINTABLE.source}|${YAML_1_1_LINE_BREAK.source}|${INVISIBLE_FORMAT.source}`, 'g');

/** `text` with each character a terminal would act on written as `\uXXXX`. */
export function visibleText(text: string): string {
  return text.replace(ACTED_ON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
