/**
 * `isRecord` for `src/`: defined once, in the model (constructs/model/is-record.ts), which `constructs/`
 * can import too.
 */
// @ts-nocheck

import { isRecord } from '../constructs/model/is-record';

export { isRecord };

/**
 * `isRecord` for code that walks untyped manifests and schemas field by field (the validator's rules, the
 * JSON Schema passes): the fields it narrows to are `any`.
 */
export const isUntypedRecord: (value: unknown) => value is Record<string, any> = isRecord;
