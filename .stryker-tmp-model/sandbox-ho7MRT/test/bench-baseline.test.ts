/**
 * The benchmark's baseline (bench/minimal-app.ts) must be what it says, a minimal cdk8s app: one
 * cdk8s-plus-28 Deployment and one ConfigMap written by the same writer as the platform. Until it imported the
 * writer from the module that also builds the platform, it loaded every agent-play construct and zod, which
 * made every ratio against it look better than it was.
 */
// @ts-nocheck

import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The project files and the packages a bundle of `entry` holds, as esbuild resolves them. */
function bundleInputs(entry: string): { files: string[]; packages: string[] } {
  const { metafile } = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const packages = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((imported) => imported.external && !imported.path.startsWith('node:')).map((imported) => imported.path),
  );
  return { files: Object.keys(metafile.inputs).sort(), packages: [...new Set(packages)].sort() };
}

describe('the benchmark baseline', () => {
  it('loads cdk8s, cdk8s-plus-28 and the manifest writer, nothing of the platform', () => {
    const { files, packages } = bundleInputs('bench/minimal-app.ts');
    expect(packages).toEqual(['cdk8s', 'cdk8s-plus-28']);
    expect(files).toContain('src/synth/write-manifests.ts');
    expect(files).toContain('constructs/model/yaml-text.ts');
    // The constructs live outside constructs/model/, whose files the writer may use: pure helpers (one that
    // used zod, as the config schema does, would show among the packages above).
    expect(files.filter((file) => file.startsWith('constructs/') && !file.startsWith('constructs/model/'))).toEqual([]);
    expect(files).not.toContain('constructs/model/config-schema.ts');
  });

  it('is told apart by the check: the platform synthesis loads the constructs and zod', () => {
    const { files, packages } = bundleInputs('src/synth/synthesize.ts');
    expect(packages).toContain('zod');
    expect(files).toContain('constructs/platform/agent-platform.ts');
  });
});
