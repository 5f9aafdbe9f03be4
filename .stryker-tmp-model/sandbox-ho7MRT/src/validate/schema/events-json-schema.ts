/**
 * A JSON Schema file with Kubernetes-style `definitions` (as Argo Events publishes `argo-events.schema.json`,
 * keyed `io.argoproj.events.v1alpha1.Sensor`, ...): the Argo Events CRDs carry no field schema, so this is the
 * schema a Sensor, EventSource or EventBus is checked against. Every definition of the kinds' own group is
 * closed and loses the `required` lists of Go fields without omitempty (withoutGoTagRequired: nothing in Argo
 * enforces them); the Kubernetes core definitions (`io.k8s.*`) are left as published.
 */
// @ts-nocheck

import type { ValidateFunction } from 'ajv';
import { closeObjectSchema, isRecord, type JsonSchema, withoutGoTagRequired } from './json-schema-passes';
import { ajvProblems, type SchemaProblem } from './schema-problem';
import { cachedValidators } from './validator-cache';

/** A definition name that describes a top-level kind: `<reverse group>.<version>.<Kind>`. */
const KIND_DEFINITION = /^io\.argoproj\.[a-z]+\.(v[0-9a-z]+)\.([A-Z][A-Za-z0-9]*)$/;

export interface DefinitionsKind {
  readonly kind: string;
  readonly apiVersion: string;
  readonly definition: string;
}

/** One JSON Schema file's kinds, each compiled on first use. */
export class DefinitionsSchema {
  /**
   * The file's top-level kinds: the definitions whose `apiVersion` and `kind` properties are declared
   * (a Go type with TypeMeta), named `io.argoproj.<project>.<version>.<Kind>`.
   * @returns `undefined` when `document` is not such a schema
   */
  public static fromDocument(document: unknown): DefinitionsSchema | undefined {
    if (!isRecord(document) || !isRecord(document.definitions)) return undefined;
    const kinds: DefinitionsKind[] = [];
    for (const [name, definition] of Object.entries(document.definitions as Record<string, JsonSchema>)) {
      const match = KIND_DEFINITION.exec(name);
      if (!match || !isRecord(definition.properties?.kind) || !isRecord(definition.properties?.apiVersion)) continue;
      if (name.endsWith('List')) continue;
      kinds.push({ kind: match[2], apiVersion: `argoproj.io/${match[1]}`, definition: name });
    }
    return kinds.length === 0 ? undefined : new DefinitionsSchema(document, kinds);
  }

  private validators: Record<string, ValidateFunction> | undefined;

  private constructor(
    private readonly document: JsonSchema,
    public readonly kinds: readonly DefinitionsKind[],
  ) {}

  /** Problems of `object` against the definition of `kind`. */
  public validate(kind: DefinitionsKind, object: unknown): SchemaProblem[] {
    const validator = this.compiled()[exportName(kind)];
    return validator(object) ? [] : ajvProblems(validator.errors);
  }

  /** Every kind's validator, compiled together (through the validator cache) on first use. */
  private compiled(): Record<string, ValidateFunction> {
    if (!this.validators) {
      const id = typeof this.document.$id === 'string' ? this.document.$id : 'agent-play:definitions';
      const schema: JsonSchema = { ...this.document, $id: id, definitions: { ...this.document.definitions } };
      // The meta-schema it names (`http://json-schema.org/schema#`) is not one ajv carries; draft-07 reads it.
      delete schema.$schema;
      for (const [name, definition] of Object.entries(schema.definitions as Record<string, JsonSchema>)) {
        if (name.startsWith('io.argoproj.')) schema.definitions[name] = closeObjectSchema(withoutGoTagRequired(definition));
      }
      const refs = Object.fromEntries(this.kinds.map((kind) => [exportName(kind), `${id}#/definitions/${kind.definition}`]));
      this.validators = cachedValidators({ document: schema, refs });
    }
    return this.validators;
  }
}

/** The name of a kind's validator in the compiled code (an identifier). */
const exportName = (kind: DefinitionsKind): string => kind.definition.replace(/[^A-Za-z0-9]/g, '_');
