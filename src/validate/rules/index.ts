/**
 * Every lint rule of `agent-play validate`, in the order they run. Each has a stable id, one negative fixture
 * under `test/fixtures/lint/<id>.yaml`, and a row in `docs/lint-rules.md`.
 */
import type { LintRule } from '../finding';

export const LINT_RULES: readonly LintRule[] = [];
