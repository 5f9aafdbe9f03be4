/**
 * Where the runtime program lives in a pod and where its steps leave their outputs: what the templates that
 * run a step and the program itself (`runtime/main.ts`) agree on.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The folder the runtime ConfigMap is mounted at. */
export const RUNTIME_MOUNT_PATH = '/agent-play';

/** The program's file name, the key of the runtime ConfigMap. */
export const RUNTIME_FILE = 'runtime.cjs';

/** The folder a step writes each output to, one file per output named after it. */
export const RUNTIME_OUTPUT_DIRECTORY = '/tmp/outputs';

/** The variable that moves the output folder (for a run outside a pod). */
export const OUTPUT_DIRECTORY_VARIABLE = 'AGENT_PLAY_OUTPUTS';

/** The file of one output. */
export function outputPath(name: string): string {
  return `${RUNTIME_OUTPUT_DIRECTORY}/${name}`;
}

/**
 * The image the runtime steps run in: the official Node.js image, pinned to an exact version (Docker
 * Official Images, `library/node`), so that no image of ours needs building, signing or pulling from
 * elsewhere. The program needs Node.js 20 or later and nothing else. Overridden by `images.runtime`.
 */
export const DEFAULT_RUNTIME_IMAGE = 'node:22.12.0-alpine3.21';
