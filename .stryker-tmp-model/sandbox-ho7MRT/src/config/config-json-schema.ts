/**
 * The JSON Schema of `agent-play.yaml`, for editor completion (yaml-language-server) and CI checks: derived
 * from the zod schema that validates the config (the input side: what a user may write, defaults optional),
 * with each section described. Cross-references (an agent naming a known CLI) are checked by
 * `agent-play config validate`, not by the schema.
 */
// @ts-nocheck

import { z } from 'zod';
import { PlatformConfigSchema } from '../../constructs/model/config-schema';
import { CONFIG_SECTIONS } from './config-sections';

/** A name, not an address: nothing serves the schema; editors use the copy saved beside the file. */
export const CONFIG_SCHEMA_ID = 'urn:cdk8s-agent-play:agent-play.schema.json';

/** Registries whose entries are merged over built-in ones: an entry may give only the fields it changes. */
const MERGED_REGISTRIES = ['agents', 'clis'] as const;

function partialEntries(schema: Record<string, any>): Record<string, any> {
  const entry = { ...schema.additionalProperties };
  delete entry.required;
  return { ...schema, additionalProperties: entry };
}

/**
 * The schema's refinement that an agent stage names its agents one way, `agent` or `agents`, is not
 * representable by zod's generator: say it in JSON Schema on every stage form that has both fields.
 */
function oneAgentField(stages: Record<string, any>): Record<string, any> {
  const forms = (stages.items?.oneOf ?? stages.items?.anyOf ?? []) as Record<string, any>[];
  for (const form of forms) {
    if (form.properties?.agent && form.properties?.agents) form.oneOf = [{ required: ['agent'] }, { required: ['agents'] }];
  }
  return stages;
}

export function configJsonSchema(): Record<string, any> {
  const generated = z.toJSONSchema(PlatformConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  const properties: Record<string, any> = {};
  for (const [key, schema] of Object.entries(generated.properties as Record<string, any>)) {
    properties[key] = { ...schema, description: CONFIG_SECTIONS[key as keyof typeof CONFIG_SECTIONS] };
  }
  for (const registry of MERGED_REGISTRIES) properties[registry] = partialEntries(properties[registry]);
  properties.stages = oneAgentField(properties.stages);
  return {
    $schema: generated.$schema,
    $id: CONFIG_SCHEMA_ID,
    title: 'agent-play configuration (agent-play.yaml)',
    description: 'Every field is optional; defaults are shown. Registries (agents, clis) are merged over the built-in ones.',
    ...generated,
    properties,
  };
}
