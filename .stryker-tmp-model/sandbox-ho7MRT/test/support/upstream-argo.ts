/**
 * Where the upstream Argo files and example corpus are (`../shared/argo/` beside the project root), whether
 * they are there, and how their YAML files are listed. Shared by the tests (through argo-schemas.ts) and by
 * `npm run oracle` (scripts/oracle.ts, through test/oracle-inputs.ts), which runs outside vitest: so this
 * module imports no vitest.
 */
// @ts-nocheck

import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** The upstream Argo files and example corpus: `../shared/argo/` beside the project root. */
export const ARGO_SCHEMAS_DIR = path.resolve(__dirname, '../../../shared/argo');

/** Whether the upstream files are there (CI: always; a user's clone: no). */
export const HAS_UPSTREAM_ARGO = existsSync(path.join(ARGO_SCHEMAS_DIR, 'argoproj.io_workflows.yaml'));

/** The `.yaml` files under `directory` (in its subfolders too unless `recursive` is false), as `/`-separated paths from it, sorted. */
export function yamlFilesUnder(directory: string, options: { recursive?: boolean } = {}): string[] {
  return readdirSync(directory, { recursive: options.recursive ?? true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}
