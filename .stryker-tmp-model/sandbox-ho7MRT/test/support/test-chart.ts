// @ts-nocheck
import { App, Chart } from 'cdk8s';

/**
 * A chart to build constructs in, as cdk8s's `Testing.chart()` but without a temp folder: `Testing.app()`
 * makes one at every call and nothing removes it, while an App makes its output folder only at
 * `app.synth()`. For a test that synthesizes, give the App a folder of useScratchDirs (test/support/scratch-dir.ts).
 */
export function testChart(): Chart {
  return new Chart(new App(), 'test');
}
