/** CronWorkflows (argo-semantics §2 L): at least one schedule of five cron fields, a known concurrency policy. */
// @ts-nocheck

import { fieldPath, type LintRule, type Violation } from '../finding';
import { isRecord, listOf } from './argo-spec';

const POLICIES = ['Allow', 'Forbid', 'Replace', ''];
/**
 * Five fields, or a robfig/cron descriptor (`@daily`, `@every 1h`). robfig/cron v3 (`parser.go`, Parse and
 * parseDescriptor) splits fields on any whitespace but matches a descriptor exactly, untrimmed, and `@every`
 * with one space: ` @daily` and `@every  1h` are refused.
 */
const isSchedule = (text: string): boolean =>
  text.trim().split(/\s+/).length === 5 || /^@(yearly|annually|monthly|weekly|daily|midnight|hourly|every \S+)$/.test(text);

export const cronScheduleRule: LintRule = {
  id: 'cron-schedule',
  severity: 'error',
  description: 'a CronWorkflow has at least one schedule of five cron fields and a known concurrencyPolicy',
  kinds: ['CronWorkflow'],
  check: (target) => {
    const spec = isRecord(target.object.spec) ? target.object.spec : {};
    const schedules = [...listOf(spec.schedules), ...(typeof spec.schedule === 'string' ? [spec.schedule] : [])];
    const violations: Violation[] = [];
    if (schedules.length === 0) violations.push({ path: 'spec.schedules', message: 'a CronWorkflow needs at least one schedule' });
    listOf(spec.schedules).forEach((schedule, index) => {
      if (typeof schedule !== 'string' || !isSchedule(schedule))
        violations.push({
          path: fieldPath('spec', 'schedules', index),
          message: `schedule ${JSON.stringify(schedule)} is not five cron fields (minute hour day month weekday)`,
        });
    });
    if (spec.concurrencyPolicy !== undefined && !POLICIES.includes(spec.concurrencyPolicy))
      violations.push({
        path: 'spec.concurrencyPolicy',
        message: `concurrencyPolicy must be one of ${POLICIES.filter(Boolean).join(', ')}`,
      });
    return violations;
  },
};
