/**
 * Writes constructs/model/config-types.generated.ts: the TypeScript types of the platform configuration
 * (what a user writes, and what `resolveConfig` returns) and of the CodeRun resource, as plain interfaces
 * with TSDoc, from the zod schemas that validate them, by way of the JSON Schema zod derives (the one
 * `agent-play config schema` prints for editors). The library's public declarations use these interfaces,
 * never zod's types: a consumer's compiler then reads no zod declaration, whatever its module options.
 *
 *   npx tsx scripts/generate-config-types.ts          write the file
 *   npx tsx scripts/generate-config-types.ts --check  fail when the committed file differs
 *
 * test/config-types.test.ts fails when the committed file is stale, and checks at compile time that each
 * interface is zod's own input or output type.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { CodeRunSpecSchema, CodeRunStatusSchema } from '../constructs/model/coderun-schema';
import * as shapes from '../constructs/model/config-shapes';
import { AgentResourcesSchema, DirectSchema, GithubEndpointsSchema, ResourcesSchema } from '../constructs/model/direct-execution';

export const CONFIG_TYPES_FILE = path.join(__dirname, '..', 'constructs', 'model', 'config-types.generated.ts');

type Io = 'input' | 'output';
type Json = { [key: string]: any };

/** A named type: its zod schema, the names of its input and output interfaces, and what it is. */
interface Named {
  readonly schema: z.ZodType;
  readonly input?: string;
  readonly output?: string;
  readonly doc: string;
  /** Every field documented, and every optional one with its default: the configuration's types. */
  readonly strict?: boolean;
}

/** The registries merged entry by entry over the built-in ones: an entry gives only the fields it changes. */
const MERGED_REGISTRIES = new Set(['agents', 'clis']);

const NAMED: readonly Named[] = [
  {
    schema: shapes.PlatformShapeSchema,
    input: 'PlatformConfigInput',
    output: 'PlatformConfig',
    strict: true,
    doc: "The platform configuration (`agent-play.yaml`, or `AgentPlatform`'s `config`)",
  },
  {
    schema: shapes.AgentSchema,
    input: 'AgentConfigInput',
    output: 'AgentConfig',
    strict: true,
    doc: 'An agent of the registry (`agents.{name}`)',
  },
  { schema: shapes.CliSchema, input: 'CliConfigInput', output: 'CliConfig', strict: true, doc: 'A CLI of the registry (`clis.{name}`)' },
  {
    schema: shapes.RepositorySchema,
    input: 'RepositoryConfigInput',
    output: 'RepositoryConfig',
    strict: true,
    doc: 'A repository (`repositories[]`)',
  },
  {
    schema: shapes.StageSchema,
    input: 'StageConfigInput',
    output: 'StageConfig',
    strict: true,
    doc: 'A stage (`stages[]`): an agent stage, a gate or the end',
  },
  { schema: shapes.AgentStageSchema, input: 'AgentStageConfigInput', output: 'AgentStageConfig', strict: true, doc: 'An agent stage' },
  {
    schema: shapes.GateStageSchema,
    input: 'GateStageConfigInput',
    output: 'GateStageConfig',
    strict: true,
    doc: 'A gate: a stage released by GitHub events',
  },
  { schema: shapes.EndStageSchema, input: 'EndStageConfigInput', output: 'EndStageConfig', strict: true, doc: 'The end stage' },
  {
    schema: shapes.ReleaseSchema,
    input: 'ReleaseConfigInput',
    output: 'ReleaseConfig',
    strict: true,
    doc: 'A GitHub event that releases a gate (see `Releases` for ready-made ones)',
  },
  { schema: shapes.WhenSchema, input: 'WhenConfigInput', output: 'WhenConfig', strict: true, doc: 'A stage condition on a play parameter' },
  {
    schema: shapes.WorkspaceSchema,
    input: 'WorkspaceConfigInput',
    output: 'WorkspaceConfig',
    strict: true,
    doc: 'The workspace PVCs (`workspace`)',
  },
  { schema: shapes.PlaySchema, input: 'PlayConfigInput', output: 'PlayConfig', strict: true, doc: 'The play WorkflowTemplates (`play`)' },
  {
    schema: shapes.ImagesSchema,
    input: 'ImagesConfigInput',
    output: 'ImagesConfig',
    strict: true,
    doc: "The platform's own images (`images`)",
  },
  { schema: shapes.EventsSchema, input: 'EventsConfigInput', output: 'EventsConfig', strict: true, doc: 'The event side (`events`)' },
  { schema: shapes.ProjectSchema, input: 'ProjectConfigInput', output: 'ProjectConfig', strict: true, doc: 'A project (`projects[]`)' },
  {
    schema: shapes.ProjectTaskSchema,
    input: 'ProjectTaskConfigInput',
    output: 'ProjectTaskConfig',
    strict: true,
    doc: 'A task of a project',
  },
  {
    schema: shapes.RemediationSchema,
    input: 'RemediationConfigInput',
    output: 'RemediationConfig',
    strict: true,
    doc: 'Remediation rounds (`remediation`)',
  },
  { schema: DirectSchema, input: 'DirectConfigInput', output: 'DirectConfig', strict: true, doc: 'Direct execution (`direct`)' },
  {
    schema: ResourcesSchema,
    input: 'AgentResourcesInput',
    output: 'AgentResources',
    strict: true,
    doc: "A direct agent's container resources",
  },
  {
    schema: AgentResourcesSchema,
    input: 'AgentResourcesOverrideInput',
    output: 'AgentResourcesOverride',
    strict: true,
    doc: "An agent's override of the direct resources: only what it names changes",
  },
  {
    schema: GithubEndpointsSchema,
    input: 'GithubEndpointsInput',
    output: 'GithubEndpoints',
    strict: true,
    doc: 'Where direct agents reach GitHub',
  },
  { schema: CodeRunSpecSchema, input: 'CodeRunSpec', doc: "A CodeRun's `spec`, as written into a manifest" },
  { schema: CodeRunStatusSchema, input: 'CodeRunStatus', doc: "A CodeRun's `status`, as read from the cluster" },
];

const NAME_KEY = 'x-agent-play-type';

/** A literal type as the project writes code: strings in single quotes. */
function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
}
/** Defaults longer than this are said in words by the field's description (`@default ...`), not as JSON. */
const MAX_DEFAULT_JSON = 60;

/** Builds the declarations of one side (input or output). */
class Emitter {
  private readonly declarations = new Map<string, string>();
  /** The body of each named schema declared, as written before any alias. */
  public readonly bodies = new Map<Named, string>();
  /** The named schemas whose output type is an alias of their input type. */
  private readonly aliased = new Set<Named>();
  /** Whether the type being declared is one of the configuration's (see `Named.strict`). */
  private strict = false;

  /**
   * @param inputSide the input side's emitter, once it has declared everything: an output type whose
   * body is its input type's (no field with a default) becomes an alias of it rather than a second copy
   */
  public constructor(
    private readonly io: Io,
    private readonly inputSide?: Emitter,
  ) {}

  /** The input type's name when `body` (an output body) says no more than the input type of `named`. */
  private sameAsInput(named: Named, body: string): string | undefined {
    const inputBody = this.inputSide?.bodies.get(named);
    if (inputBody === undefined || named.input === undefined) return undefined;
    let renamed = inputBody;
    for (const other of NAMED) {
      if (other.input === undefined || other.output === undefined) continue;
      const reference = new RegExp(`\\b${other.input}\\b`, 'g');
      if (!reference.test(renamed)) continue;
      // A type it names must be the same on both sides too, or the alias would take the input's looser one.
      if (!this.aliased.has(other)) return undefined;
      renamed = renamed.replace(reference, other.output);
    }
    return renamed === body ? named.input : undefined;
  }

  private nameOf(named: Named): string | undefined {
    return this.io === 'input' ? named.input : named.output;
  }

  /** The JSON Schema of a named schema, each named schema inside it marked with its name. */
  private jsonSchema(named: Named): Json {
    const names = new Map<unknown, string>();
    for (const other of NAMED) {
      const name = this.nameOf(other);
      if (name !== undefined) names.set(other.schema, name);
    }
    return z.toJSONSchema(named.schema, {
      io: this.io,
      unrepresentable: 'any',
      override: (context) => {
        const name = names.get(context.zodSchema);
        if (name !== undefined) (context.jsonSchema as Json)[NAME_KEY] = name;
      },
    }) as Json;
  }

  public declare(named: Named): void {
    const name = this.nameOf(named);
    if (name === undefined || this.declarations.has(name)) return;
    this.declarations.set(name, '');
    const schema = this.jsonSchema(named);
    const outer = this.strict;
    this.strict = named.strict === true;
    const body = this.type(schema, '', true, name);
    this.strict = outer;
    this.bodies.set(named, body);
    const alias = this.io === 'output' ? this.sameAsInput(named, body) : undefined;
    if (alias !== undefined) this.aliased.add(named);
    const doc = `/** ${named.doc}${this.io === 'input' ? ', as a user writes it: every field with a default may be left out' : ', parsed: every default applied'}. */`;
    // Type aliases rather than interfaces: a parsed config stays assignable to `Record<string, unknown>`.
    const declaration = `${doc}\nexport type ${name} = ${alias ?? body};\n`;
    this.declarations.set(name, declaration);
  }

  public source(): string {
    return [...this.declarations.values()].join('\n');
  }

  /** The TypeScript type of a JSON Schema; `root` is the named schema being declared itself. */
  private type(schema: Json, indent: string, root = false, field = ''): string {
    const name = schema[NAME_KEY] as string | undefined;
    if (name !== undefined && !root) {
      const named = NAMED.find((candidate) => this.nameOf(candidate) === name);
      if (named) this.declare(named);
      return name;
    }
    const variants = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
    if (variants) return variants.map((variant) => this.type(variant, indent)).join(' | ');
    if ('const' in schema) return literal(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
    if (schema.not !== undefined) return 'never';
    const kind = schema.type as string | string[] | undefined;
    if (Array.isArray(kind)) return kind.map((one) => this.type({ ...schema, type: one }, indent)).join(' | ');
    switch (kind) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const item = this.type(schema.items ?? {}, indent);
        return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
      }
      case 'object':
        return this.objectType(schema, indent, field);
      case undefined:
        return 'unknown';
      default:
        throw new Error(`${field || 'schema'}: no TypeScript type for JSON Schema type ${kind}`);
    }
  }

  private objectType(schema: Json, indent: string, field: string): string {
    const properties = schema.properties as Record<string, Json> | undefined;
    if (properties === undefined) {
      const values = schema.additionalProperties;
      if (values === false) return 'Record<string, never>';
      const value = values === undefined || values === true ? 'unknown' : this.type(values, indent);
      return `{ [key: string]: ${value} }`;
    }
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const inner = `${indent}  `;
    const lines = Object.entries(properties).map(([key, property]) => {
      const path = field === '' ? key : `${field}.${key}`;
      let type = this.type(property, inner, false, path);
      if (this.io === 'input' && MERGED_REGISTRIES.has(key) && field === 'PlatformConfigInput') {
        type = `{ [name: string]: Partial<${this.type(property.additionalProperties, inner)}> }`;
      }
      const optional = !required.has(key);
      return `${fieldDoc(property, path, optional, inner, this.strict)}${inner}${key}${optional ? '?' : ''}: ${type};`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
}

/** What the schemas lack for the types' documentation, reported together. */
const problems: string[] = [];

/** A field's TSDoc: its description, and `@default` when it may be left out. */
function fieldDoc(property: Json, path: string, optional: boolean, indent: string, strict: boolean): string {
  const description = (property.description as string | undefined)?.trim();
  if (description === undefined || description === '') {
    if (strict) problems.push(`${path}: no description (.describe()) in the zod schema`);
    return '';
  }
  const [text, saidDefault] = description.split(/\s*@default\s+/);
  let defaultText = saidDefault;
  if (defaultText === undefined && 'default' in property) {
    const json = JSON.stringify(property.default);
    if (json.length <= MAX_DEFAULT_JSON) defaultText = json;
  }
  if (strict && optional && defaultText === undefined)
    problems.push(
      'default' in property
        ? `${path}: its default is too long to show; say it in words (\`@default ...\`) in the description`
        : `${path}: optional without a default; say what leaving it out means (\`@default ...\`)`,
    );
  const lines = wrap(text, 110 - indent.length);
  if (defaultText !== undefined) lines.push(`@default ${defaultText}`);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The text of constructs/model/config-types.generated.ts. */
export function configTypesSource(): string {
  const parts: string[] = [];
  const input = new Emitter('input');
  for (const named of NAMED) input.declare(named);
  const output = new Emitter('output', input);
  for (const named of NAMED) output.declare(named);
  parts.push(input.source(), output.source());
  if (problems.length > 0) throw new Error(`the zod schemas lack documentation:\n${[...new Set(problems)].join('\n')}`);
  const header = `/**
 * The types of the platform configuration and of the CodeRun resource: what a user writes (\`...Input\`,
 * every field with a default optional) and what \`resolveConfig\` returns (every default applied).
 *
 * Generated by scripts/generate-config-types.ts from the zod schemas (config-shapes.ts,
 * direct-execution.ts, coderun-schema.ts); do not edit. \`npm run config-types\` writes it again, and
 * test/config-types.test.ts fails when it is stale.
 */
`;
  return `${header}\n${parts.join('\n')}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const source = configTypesSource();
  if (process.argv.includes('--check')) {
    if (readFileSync(CONFIG_TYPES_FILE, 'utf8') !== source) {
      console.error(`${path.relative(process.cwd(), CONFIG_TYPES_FILE)} is stale: run npm run config-types`);
      process.exit(1);
    }
  } else writeFileSync(CONFIG_TYPES_FILE, source);
}
