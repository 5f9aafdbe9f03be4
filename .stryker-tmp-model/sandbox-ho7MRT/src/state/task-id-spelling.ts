/**
 * How a text spells a task id, for the messages that tell a person what to write instead: the platform
 * reads one form only (the runtime's `canonicalTaskId`: digits without a leading zero, at most MAX_TASK_ID),
 * so `007` names no task, and saying "write 7" beats "not found".
 */
// @ts-nocheck

import { MAX_TASK_ID } from '../../constructs/model/naming';
import { canonicalTaskId } from '../../constructs/runtime/step-env';

export type TaskIdSpelling =
  | { readonly form: 'canonical'; readonly id: number }
  | { readonly form: 'leading-zeros'; readonly id: number }
  | { readonly form: 'too-large' }
  | { readonly form: 'not-digits' };

/** The form of `text` as a task id; `id` is the task it means when only its spelling is wrong. */
export function taskIdSpelling(text: string): TaskIdSpelling {
  const canonical = canonicalTaskId(text);
  if (canonical !== undefined) return { form: 'canonical', id: canonical };
  if (!/^\d+$/.test(text)) return { form: 'not-digits' };
  const id = Number(text);
  return Number.isSafeInteger(id) && id <= MAX_TASK_ID ? { form: 'leading-zeros', id } : { form: 'too-large' };
}
