/** Cases for the rules on Argo Events kinds and the objects they must agree with, and on labels and PVCs. */
// @ts-nocheck

import { RESUMER_GATE_PARAMETER } from '../../../constructs/resumer/play-resumer-template';
import { ARGOCD_SYNC_OPTIONS_ANNOTATION } from '../../../constructs/model/labels';
import { GATE_STAGE_INPUT, gateNodeSelector, RESUMER_TEMPLATE_NAME } from '../../../constructs/model/play-contract';
import { eventsNamespaceRule, sensorEventSourceRule } from '../../../src/validate/rules/events-wiring';
import {
  sensorContextTimeFilterRule,
  sensorDataFilterRegexRule,
  sensorDataFilterRule,
  sensorDependenciesRule,
  sensorExprFilterRule,
  sensorLogicalOperatorRule,
} from '../../../src/validate/rules/sensor-dependencies';
import { sensorGateExistsRule } from '../../../src/validate/rules/sensor-gates';
import { remediatorStagesRule } from '../../../src/validate/rules/remediator-stages';
import {
  sensorConditionsRule,
  sensorParameterRule,
  sensorTriggerOperationRule,
  sensorTriggersRule,
} from '../../../src/validate/rules/sensor-triggers';
import { pvcPruneProtectionRule, specLabelsRule } from '../../../src/validate/rules/spec-labels';
import {
  BASE_WORKFLOW,
  eventBus,
  eventSource,
  manifest,
  pair,
  sensor,
  variant,
  workflowTemplate,
  type Json,
  type RuleTable,
} from '../cases';
import type { ManifestObject } from '../../../src/validate/finding';

const dependency = (spec: any) => spec.dependencies[0];
const dataFilter = (spec: any) => spec.dependencies[0].filters.data[0];
const trigger = (spec: any) => spec.triggers[0].template;
const argo = (spec: any) => spec.triggers[0].template.argoWorkflow;

/**
 * A CronWorkflow running the base workflow, with `workflowMetadata` for the Workflows it creates beside its
 * workflowSpec (`own`) and inside it (`inSpec`).
 */
const cronWorkflow = (own?: Json, inSpec?: Json) =>
  manifest('CronWorkflow', 'nightly', {
    schedules: ['@daily'],
    ...(own && { workflowMetadata: own }),
    workflowSpec: { ...structuredClone(BASE_WORKFLOW), ...(inSpec && { workflowMetadata: inSpec }) },
  });

/** A WorkflowTemplate with one gate, `waiting-pr-created`, declared the way plays declare gates. */
const gated = workflowTemplate((spec) => {
  spec.templates[0].dag.tasks[1] = {
    name: 'b',
    template: 'gate',
    depends: 'a',
    arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: 'waiting-pr-created' }] },
  };
  spec.templates.push({ name: 'gate', inputs: { parameters: [{ name: GATE_STAGE_INPUT }] }, suspend: {} });
});

/** A ClusterWorkflowTemplate declaring gates `waiting-b` then `waiting-a`, so a sorted list differs from the order found. */
const twoGates = variant('ClusterWorkflowTemplate', 'play', gated.object.spec as any, (spec) => {
  spec.templates[0].dag.tasks[0] = {
    name: 'a',
    template: 'gate',
    arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: 'waiting-b' }] },
  };
  spec.templates[0].dag.tasks[1].arguments.parameters[0].value = 'waiting-a';
});

/**
 * Gate calls that declare no gate: another input before the gate input, a call without the gate input, and a
 * gate input without a literal value. Only `waiting-pr-created` is a gate.
 */
const oddlyGated = variant('WorkflowTemplate', 'play', gated.object.spec as any, (spec) => {
  spec.templates[0].dag.tasks[1].arguments.parameters.unshift({ name: 'other', value: 'waiting-other' });
  spec.templates[0].dag.tasks.push(
    { name: 'c', template: 'gate', arguments: { parameters: [{ name: 'other', value: 'waiting-other' }] } },
    { name: 'd', template: 'gate', arguments: { parameters: [{ name: GATE_STAGE_INPUT, valueFrom: { parameter: 'x' } }] } },
    { name: 'e', template: 'gate', arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: '{{inputs.parameters.gate}}' }] } },
  );
});

const resumerTrigger = (gate: string) => (spec: any) =>
  (spec.triggers[0].template = {
    name: 'resume',
    k8s: {
      operation: 'create',
      source: {
        resource: {
          kind: 'Workflow',
          spec: {
            workflowTemplateRef: { name: RESUMER_TEMPLATE_NAME },
            arguments: { parameters: [{ name: RESUMER_GATE_PARAMETER, value: gate }] },
          },
        },
      },
    },
  });

/** A remediator whose decide step names `stage` (and, when given, `stale` as the stale-work restart stage). */
const remediator = (stage: string, stale?: string, labels: Record<string, string> = { 'workflow-type': 'remediator' }) =>
  manifest(
    'WorkflowTemplate',
    'play-remediator',
    {
      entrypoint: 'remediate',
      templates: [
        { name: 'remediate', steps: [[{ name: 'decide', template: 'decide' }]] },
        {
          name: 'decide',
          script: {
            image: 'alpine/k8s:1.31.4',
            source: 'true',
            env: [
              { name: 'IMPLEMENTATION_STAGE', value: stage },
              ...(stale === undefined ? [] : [{ name: 'STALE_RESTART_STAGE', value: stale }]),
            ],
          },
        },
      ],
    },
    { labels },
  );

/** A remediator (implementation stage `stage`) whose decide template `change` rewrites. */
const remediatorWith = (change: (decide: any) => void, stage = 'implementation'): ManifestObject => {
  const built = remediator(stage);
  const object = structuredClone(built.object) as any;
  change(object.spec.templates[1]);
  return { ...built, object };
};

/** A play with agent stage `implementation`, parallel agent stage `review` (cleo, tess), gate `waiting` and the end. */
const remediatedPlay = manifest('WorkflowTemplate', 'play-payments', {
  entrypoint: 'play',
  arguments: { parameters: [{ name: 'start-stage', value: 'implementation', enum: ['implementation', 'waiting', 'review', 'completed'] }] },
  templates: [
    {
      name: 'play',
      dag: {
        tasks: [
          { name: 'implementation', template: 'run-implementation' },
          { name: 'waiting', template: 'gate', depends: 'implementation' },
          { name: 'review-cleo', template: 'run-review-cleo', depends: 'waiting' },
          { name: 'review-tess', template: 'run-review-tess', depends: 'waiting' },
        ],
      },
    },
    { name: 'run-implementation', suspend: {} },
    { name: 'run-review-cleo', suspend: {} },
    { name: 'run-review-tess', suspend: {} },
    { name: 'gate', suspend: {} },
  ],
});

/** A CLI parameter with its own enum, declared before start-stage. */
const withCliEnum = (spec: any) => spec.arguments.parameters.unshift({ name: 'cli', value: 'claude', enum: ['claude'] });

export const EVENTS_TABLES: RuleTable[] = [
  {
    rule: remediatorStagesRule,
    cases: [
      {
        name: 'an implementation stage the play does not have',
        message: 'IMPLEMENTATION_STAGE "implement" is not an agent stage of play play-payments (agent stages: implementation, review)',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [remediator('implementation'), remediatedPlay],
        path: 'spec.templates[1].script.env[0].value',
      },
      {
        name: 'an implementation stage that is a gate',
        message: 'IMPLEMENTATION_STAGE "waiting" is not an agent stage',
        broken: [remediator('waiting'), remediatedPlay],
        fixed: [remediator('review'), remediatedPlay],
      },
      {
        name: 'a stale-work restart stage the play does not have (any stage will do)',
        message: 'STALE_RESTART_STAGE "testing" is not a stage of play play-payments',
        broken: [remediator('implementation', 'testing'), remediatedPlay],
        fixed: [remediator('implementation', 'waiting'), remediatedPlay],
        path: 'spec.templates[1].script.env[1].value',
      },
      {
        name: 'only the remediator is checked, and only against plays',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [remediator('implement', undefined, { 'workflow-type': 'resumer' }), remediatedPlay],
      },
      {
        name: 'a run without plays is not checked',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [remediator('implement')],
      },
      {
        name: 'a stale-work restart stage: the whole message, which lists every stage',
        message:
          'STALE_RESTART_STAGE "testing" is not a stage of play play-payments (stages: implementation, waiting, review, completed): its successors would be refused; regenerate the remediator from the same stages',
        broken: [remediator('implementation', 'testing'), remediatedPlay],
        fixed: [remediator('implementation', 'completed'), remediatedPlay],
      },
      {
        name: 'a play that is a ClusterWorkflowTemplate',
        message: 'IMPLEMENTATION_STAGE "implement" is not an agent stage of play play-payments',
        broken: [remediator('implement'), { ...remediatedPlay, kind: 'ClusterWorkflowTemplate' }],
        fixed: [remediator('implementation'), { ...remediatedPlay, kind: 'ClusterWorkflowTemplate' }],
      },
      {
        name: "a play's stages are the enum of its start-stage parameter, not of another parameter",
        message: '(agent stages: implementation, review)',
        broken: [remediator('implement'), variant('WorkflowTemplate', 'play-payments', remediatedPlay.object.spec as any, withCliEnum)],
        fixed: [remediator('implementation'), variant('WorkflowTemplate', 'play-payments', remediatedPlay.object.spec as any, withCliEnum)],
      },
      {
        name: 'a start-stage enum without a stage name is no play',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [
          remediator('implement'),
          manifest('WorkflowTemplate', 'numbered', { arguments: { parameters: [{ name: 'start-stage', value: 1, enum: [1, 2] }] } }),
        ],
      },
      {
        name: 'a decide step in a container template: where it points',
        message: 'IMPLEMENTATION_STAGE "implement" is not an agent stage',
        path: 'spec.templates[1].container.env[0].value',
        broken: [remediatorWith((decide) => ((decide.container = decide.script), delete decide.script), 'implement'), remediatedPlay],
        fixed: [remediatorWith((decide) => ((decide.container = decide.script), delete decide.script)), remediatedPlay],
      },
      {
        name: 'env entries that name no stage are skipped: not objects, names that are not text, values from elsewhere, empty values, other variables',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [
          remediatorWith((decide) =>
            decide.script.env.push(
              null,
              'IMPLEMENTATION_STAGE',
              { name: ['IMPLEMENTATION_STAGE'], value: 'implement' },
              { name: 'IMPLEMENTATION_STAGE', valueFrom: { configMapKeyRef: { name: 'stages', key: 'implementation' } } },
              { name: 'IMPLEMENTATION_STAGE', value: '' },
              { name: 'OTHER_STAGE', value: 'implement' },
            ),
          ),
          remediatedPlay,
        ],
      },
      {
        name: 'a remediator whose spec cannot be read is skipped',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [{ ...remediator('implement'), object: { ...remediator('implement').object, spec: 'x' } }, remediatedPlay],
      },
      {
        name: 'a WorkflowTemplate without labels is no remediator',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [remediatedPlay, remediator('implement')],
      },
      {
        name: 'a WorkflowTemplate without metadata is no remediator',
        message: 'is not an agent stage',
        broken: [remediator('implement'), remediatedPlay],
        fixed: [
          { ...remediator('implement'), object: { kind: 'WorkflowTemplate', spec: remediator('implement').object.spec } },
          remediatedPlay,
        ],
      },
    ],
  },
  {
    rule: sensorDependenciesRule,
    cases: [
      pair(
        'no dependencies',
        'needs at least one dependency',
        sensor,
        (s) => (s.dependencies = []),
        () => {},
        'spec.dependencies',
      ),
      pair(
        'a dependency without eventName',
        'every dependency needs eventName',
        sensor,
        (s) => delete dependency(s).eventName,
        () => {},
      ),
      pair(
        'a dependency with an empty eventSourceName',
        'every dependency needs eventSourceName',
        sensor,
        (s) => (dependency(s).eventSourceName = ''),
        () => {},
      ),
      pair(
        'a dependency name used twice',
        'is used twice',
        sensor,
        (s) => s.dependencies.push({ ...dependency(s) }),
        (s) => s.dependencies.push({ ...dependency(s), name: 'pr2' }),
        'spec.dependencies[1].name',
      ),
      pair(
        'a dependency that is not an object is left to the schema check',
        'every dependency needs name',
        sensor,
        (s) => s.dependencies.push({ eventSourceName: 'github', eventName: 'org' }),
        (s) => s.dependencies.push('pr2'),
        'spec.dependencies[1].name',
      ),
    ],
  },
  {
    rule: sensorLogicalOperatorRule,
    cases: [
      pair(
        'an upper-case filtersLogicalOperator',
        '"AND" is not a logical operator',
        sensor,
        (s) => (dependency(s).filtersLogicalOperator = 'AND'),
        (s) => (dependency(s).filtersLogicalOperator = 'and'),
        'spec.dependencies[0].filtersLogicalOperator',
      ),
      pair(
        'an unknown dataLogicalOperator',
        'is not a logical operator',
        sensor,
        (s) => (dependency(s).filters.dataLogicalOperator = 'xor'),
        (s) => (dependency(s).filters.dataLogicalOperator = 'or'),
        'spec.dependencies[0].filters.dataLogicalOperator',
      ),
      pair(
        'an unknown exprLogicalOperator',
        'is not a logical operator',
        sensor,
        (s) => (dependency(s).filters.exprLogicalOperator = '&&'),
        (s) => (dependency(s).filters.exprLogicalOperator = ''),
        'spec.dependencies[0].filters.exprLogicalOperator',
      ),
      pair(
        'a dependency without filters has no operators to check',
        '"AND" is not a logical operator',
        sensor,
        (s) => (dependency(s).filtersLogicalOperator = 'AND'),
        (s) => s.dependencies.push({ name: 'plain', eventSourceName: 'github', eventName: 'org' }),
        'spec.dependencies[0].filtersLogicalOperator',
      ),
    ],
  },
  {
    rule: sensorDataFilterRule,
    cases: [
      pair(
        'a data filter without a path',
        'needs a path',
        sensor,
        (s) => (dataFilter(s).path = ''),
        () => {},
        'spec.dependencies[0].filters.data[0].path',
      ),
      pair(
        'an unknown type',
        'type "int" must be one of string, number, bool',
        sensor,
        (s) => (dataFilter(s).type = 'int'),
        () => {},
        'spec.dependencies[0].filters.data[0].type',
      ),
      pair(
        'no values',
        'needs at least one value',
        sensor,
        (s) => (dataFilter(s).value = []),
        () => {},
        'spec.dependencies[0].filters.data[0].value',
      ),
      pair(
        'an unknown comparator',
        'comparator "==" must be one of >= > = != < <=',
        sensor,
        (s) => (dataFilter(s).comparator = '=='),
        (s) => (dataFilter(s).comparator = '!='),
        'spec.dependencies[0].filters.data[0].comparator',
      ),
      pair(
        'an ordering comparator on a string',
        'a string filter only matches with = or !=',
        sensor,
        (s) => (dataFilter(s).comparator = '>'),
        (s) => (dataFilter(s).comparator = '='),
        'spec.dependencies[0].filters.data[0].comparator',
      ),
      pair(
        'the ordering comparator <= on a string',
        'a string filter only matches with = or !=; <= never matches',
        sensor,
        (s) => (dataFilter(s).comparator = '<='),
        (s) => (dataFilter(s).comparator = '!='),
        'spec.dependencies[0].filters.data[0].comparator',
      ),
      pair(
        'the ordering comparator < on a string',
        'a string filter only matches with = or !=; < never matches',
        sensor,
        (s) => (dataFilter(s).comparator = '<'),
        (s) => (dataFilter(s).comparator = '!='),
        'spec.dependencies[0].filters.data[0].comparator',
      ),
      pair(
        'the ordering comparator >= on a string',
        'a string filter only matches with = or !=; >= never matches',
        sensor,
        (s) => (dataFilter(s).comparator = '>='),
        (s) => (dataFilter(s).comparator = '!='),
        'spec.dependencies[0].filters.data[0].comparator',
      ),
      pair(
        'an empty value',
        'filter values must be non-empty strings',
        sensor,
        (s) => (dataFilter(s).value = ['']),
        () => {},
        'spec.dependencies[0].filters.data[0].value[0]',
      ),
      pair(
        'a value that is not a string',
        'filter values must be non-empty strings',
        sensor,
        (s) => (dataFilter(s).value = [7]),
        (s) => {
          s.dependencies.push({ name: 'plain', eventSourceName: 'github', eventName: 'org' });
          dependency(s).filters.data.push('not a filter');
        },
        'spec.dependencies[0].filters.data[0].value[0]',
      ),
      pair(
        'a data filter without any path',
        'a data filter needs a path',
        sensor,
        (s) => delete dataFilter(s).path,
        () => {},
        'spec.dependencies[0].filters.data[0].path',
      ),
      pair(
        'a number value is not read as a regular expression',
        '"+1" is not a valid regular expression',
        sensor,
        (s) => (dataFilter(s).value = ['+1']),
        (s) => Object.assign(dataFilter(s), { type: 'number', value: ['+1'], comparator: '>' }),
        'spec.dependencies[0].filters.data[0].value[0]',
      ),
      pair(
        'a number filter value that is not a number',
        'is not a number',
        sensor,
        (s) => Object.assign(dataFilter(s), { type: 'number', value: ['ten'] }),
        (s) => Object.assign(dataFilter(s), { type: 'number', value: ['10', '-1.5'] }),
      ),
      pair(
        'a bool value Go does not parse',
        'is not a boolean Go parses',
        sensor,
        (s) => Object.assign(dataFilter(s), { type: 'bool', value: ['yes'] }),
        (s) => Object.assign(dataFilter(s), { type: 'bool', value: ['true', 'F', '0'] }),
      ),
      pair(
        'a regexp Go refuses (\\C)',
        'is not a valid regular expression: invalid escape sequence',
        sensor,
        (s) => (dataFilter(s).value = ['^a\\C$']),
        (s) => (dataFilter(s).value = ['^(?i:Main)$']),
      ),
      pair(
        'lookahead, which Go refuses',
        'is not a valid regular expression',
        sensor,
        (s) => (dataFilter(s).value = ['^(?=opened)$']),
        (s) => (dataFilter(s).value = ['^[[:alpha:]]+$']),
      ),
    ],
  },
  {
    rule: sensorDataFilterRegexRule,
    cases: [
      pair(
        'a pattern anchored at neither end',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['main']),
        (s) => (dataFilter(s).value = ['^main$']),
      ),
      pair(
        'a pattern anchored only at the start',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['^main']),
        (s) => (dataFilter(s).value = ['(?i)^main$']),
      ),
      pair(
        'a pattern anchored only at the end',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['main$']),
        (s) => (dataFilter(s).value = ['^(main|master)$']),
      ),
      pair(
        'flag groups anywhere do not count',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['(?is)main$']),
        (s) => (dataFilter(s).value = ['(?is)^main$', '^main$(?i)', '(?-s)^a(?i)b$']),
      ),
      pair(
        'a dollar after an escaped backslash is an anchor',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['^a\\\\\\$']),
        (s) => (dataFilter(s).value = ['^a\\\\$']),
      ),
      pair(
        'an escaped dollar is no anchor',
        'is not anchored',
        sensor,
        (s) => (dataFilter(s).value = ['^cost\\$']),
        (s) => (dataFilter(s).value = ['^cost\\$$']),
      ),
      pair(
        'the suggested fix drops leading flags',
        'write ^main$',
        sensor,
        (s) => (dataFilter(s).value = ['(?i)main']),
        (s) => (dataFilter(s).value = ['(?i)main', '^x$']) && (dataFilter(s).template = '{{ .Input }}'),
      ),
      pair(
        'the suggested fix drops several leading flags, and only leading ones',
        '"main(?i)" is not anchored, so it also matches any value that contains it: write ^main(?i)$ to match it exactly',
        sensor,
        (s) => (dataFilter(s).value = ['(?is)main', 'main(?i)']),
        (s) => (dataFilter(s).value = ['^main$']),
        'spec.dependencies[0].filters.data[0].value[1]',
      ),
      pair(
        'only string filters with valid non-empty patterns are checked for anchors',
        'write ^main$ to match it exactly',
        sensor,
        (s) => (dataFilter(s).value = ['(?is)main']),
        (s) => {
          dataFilter(s).value = ['^a$', '', 7, 'a\\C'];
          s.dependencies.push({
            ...{ name: 'plain', eventSourceName: 'github', eventName: 'org' },
            filters: { data: [{ path: 'body.n', type: 'number', value: ['10'] }] },
          });
        },
        'spec.dependencies[0].filters.data[0].value[0]',
      ),
    ],
  },
  {
    rule: sensorExprFilterRule,
    cases: [
      pair(
        'an expr filter without an expression',
        'needs an expression',
        sensor,
        (s) => (dependency(s).filters.exprs = [{ expr: '', fields: [{ name: 'a', path: 'body.action' }] }]),
        (s) => (dependency(s).filters.exprs = [{ expr: 'a == "opened"', fields: [{ name: 'a', path: 'body.action' }] }]),
        'spec.dependencies[0].filters.exprs[0].expr',
      ),
      pair(
        'an expr filter without fields',
        'needs fields',
        sensor,
        (s) => (dependency(s).filters.exprs = [{ expr: 'true' }]),
        (s) => (dependency(s).filters.exprs = [{ expr: 'a', fields: [{ name: 'a', path: 'body.merged' }] }]),
        'spec.dependencies[0].filters.exprs[0].fields',
      ),
      pair(
        'a field without a path',
        'every field needs a path',
        sensor,
        (s) => (dependency(s).filters.exprs = [{ expr: 'a', fields: [{ name: 'a' }] }]),
        (s) => (dependency(s).filters.exprs = [{ expr: 'a', fields: [{ name: 'a', path: 'x' }] }]),
        'spec.dependencies[0].filters.exprs[0].fields[0].path',
      ),
      pair(
        'an expr filter whose expression is missing',
        'an expr filter needs an expression',
        sensor,
        (s) => (dependency(s).filters.exprs = [{ fields: [{ name: 'a', path: 'x' }] }]),
        (s) => {
          dependency(s).filters.exprs = ['not an expr', { expr: 'a', fields: [{ name: 'a', path: 'x' }] }];
          s.dependencies.push({ name: 'plain', eventSourceName: 'github', eventName: 'org' });
        },
        'spec.dependencies[0].filters.exprs[0].expr',
      ),
      pair(
        'a field with an empty name',
        'every field needs a name',
        sensor,
        (s) => (dependency(s).filters.exprs = [{ expr: 'a', fields: [{ name: '', path: 'x' }] }]),
        (s) => (dependency(s).filters.exprs = [{ expr: 'a', fields: [{ name: 'a', path: 'x' }] }]),
        'spec.dependencies[0].filters.exprs[0].fields[0].name',
      ),
    ],
  },
  {
    rule: sensorContextTimeFilterRule,
    cases: [
      pair(
        'a context filter with no attribute',
        'needs at least one of type',
        sensor,
        (s) => (dependency(s).filters.context = { id: 'x' }),
        (s) => (dependency(s).filters.context = { source: 'github' }),
        'spec.dependencies[0].filters.context',
      ),
      pair(
        'a context filter whose only attribute is empty',
        'a context filter needs at least one of type, subject, source, datacontenttype',
        sensor,
        (s) => (dependency(s).filters.context = { source: '' }),
        (s) => {
          dependency(s).filters.context = { type: 'push' };
          s.dependencies.push({ name: 'plain', eventSourceName: 'github', eventName: 'org' });
        },
        'spec.dependencies[0].filters.context',
      ),
      pair(
        'subject alone makes a context filter',
        'needs at least one of type',
        sensor,
        (s) => (dependency(s).filters.context = { subject: '' }),
        (s) => (dependency(s).filters.context = { subject: 'repo' }),
      ),
      pair(
        'datacontenttype alone makes a context filter',
        'needs at least one of type',
        sensor,
        (s) => (dependency(s).filters.context = { datacontenttype: 7 }),
        (s) => (dependency(s).filters.context = { datacontenttype: 'application/json' }),
      ),
      pair(
        'a time that is not hh:mm:ss',
        'start must be a time of day',
        sensor,
        (s) => (dependency(s).filters.time = { start: '24:00:00', stop: '01:00:00' }),
        (s) => (dependency(s).filters.time = { start: '23:59:59', stop: '1:00:00' }),
        'spec.dependencies[0].filters.time.start',
      ),
      pair(
        'a time that is not a string',
        'start must be a time of day hh:mm:ss',
        sensor,
        (s) => (dependency(s).filters.time = { start: ['01:00:00'], stop: '02:00:00' }),
        (s) => (dependency(s).filters.time = { start: '01:00:00', stop: '02:00:00' }),
        'spec.dependencies[0].filters.time.start',
      ),
      pair(
        'start equal to stop',
        'the window is empty',
        sensor,
        (s) => (dependency(s).filters.time = { start: '09:00:00', stop: '09:00:00' }),
        (s) => (dependency(s).filters.time = { start: '09:00:00', stop: '17:00:00' }),
        'spec.dependencies[0].filters.time',
      ),
    ],
  },
  {
    rule: sensorTriggersRule,
    cases: [
      pair(
        'no triggers',
        'needs at least one trigger',
        sensor,
        (s) => (s.triggers = []),
        () => {},
        'spec.triggers',
      ),
      pair(
        'a trigger without a template',
        'every trigger needs a template',
        sensor,
        (s) => (s.triggers = [{}]),
        () => {},
        'spec.triggers[0].template',
      ),
      pair(
        'a trigger template without a name',
        'needs a name',
        sensor,
        (s) => delete trigger(s).name,
        () => {},
        'spec.triggers[0].template.name',
      ),
      pair(
        'two triggers named alike',
        'is used twice',
        sensor,
        (s) => s.triggers.push(structuredClone(s.triggers[0])),
        (s) => s.triggers.push({ template: { ...structuredClone(trigger(s)), name: 'other' } }),
        'spec.triggers[1].template.name',
      ),
      pair(
        'a trigger with no type',
        'trigger "resume" has no type (one of k8s, argoWorkflow, http, awsLambda, custom, kafka, nats, slack, openWhisk, log, azureEventHubs, pulsar, email, azureServiceBus)',
        sensor,
        (s) => delete trigger(s).argoWorkflow,
        () => {},
        'spec.triggers[0].template',
      ),
      pair(
        'a trigger with two types',
        'has several types (k8s, argoWorkflow)',
        sensor,
        (s) => (trigger(s).k8s = { operation: 'create', source: {} }),
        () => {},
        'spec.triggers[0].template',
      ),
      pair(
        'a trigger that is not an object is left to the schema check',
        'every trigger needs a template',
        sensor,
        (s) => s.triggers.push({}),
        (s) => s.triggers.push('resume-again'),
        'spec.triggers[1].template',
      ),
    ],
  },
  {
    rule: sensorTriggerOperationRule,
    cases: [
      pair(
        'an argoWorkflow trigger without an operation',
        'trigger "resume": operation is not set: use one of submit, submit-from, suspend, retry, resume, resubmit, terminate, stop',
        sensor,
        (s) => delete argo(s).operation,
        () => {},
        'spec.triggers[0].template.argoWorkflow.operation',
      ),
      pair(
        'an unknown argoWorkflow operation',
        '"start" is unknown',
        sensor,
        (s) => (argo(s).operation = 'start'),
        (s) => (argo(s).operation = 'submit'),
        'spec.triggers[0].template.argoWorkflow.operation',
      ),
      pair(
        'an argoWorkflow trigger without a source',
        'needs a source (the Workflow',
        sensor,
        (s) => delete argo(s).source,
        () => {},
        'spec.triggers[0].template.argoWorkflow.source',
      ),
      pair(
        'an unknown k8s operation',
        'must be one of create, update, patch, delete',
        sensor,
        (s) => (s.triggers[0].template = { name: 'r', k8s: { operation: 'apply', source: { resource: {} } } }),
        (s) => (s.triggers[0].template = { name: 'r', k8s: { operation: 'patch', source: { resource: {} } } }),
        'spec.triggers[0].template.k8s.operation',
      ),
      pair(
        'a k8s trigger without a source',
        'needs a source (the resource',
        sensor,
        (s) => (s.triggers[0].template = { name: 'r', k8s: {} }),
        (s) => (s.triggers[0].template = { name: 'r', k8s: { source: { resource: {} } } }),
        'spec.triggers[0].template.k8s.source',
      ),
      pair(
        'an http trigger without a url',
        'needs a url',
        sensor,
        (s) => (s.triggers[0].template = { name: 'r', http: { method: 'POST' } }),
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x', method: 'POST' } }),
        'spec.triggers[0].template.http.url',
      ),
      pair(
        'an http trigger with an empty url',
        'trigger "r" needs a url',
        sensor,
        (s) => (s.triggers[0].template = { name: 'r', http: { url: '' } }),
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x' } }),
        'spec.triggers[0].template.http.url',
      ),
      pair(
        'an unknown http method',
        'trigger "r": method must be one of GET, DELETE, PATCH, POST, PUT',
        sensor,
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x', method: 'post' } }),
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x' } }),
        'spec.triggers[0].template.http.method',
      ),
    ],
  },
  {
    rule: sensorParameterRule,
    cases: [
      pair(
        'a parameter without src.dependencyName',
        'needs src.dependencyName',
        sensor,
        (s) => (argo(s).parameters = [{ src: {}, dest: 'spec.x' }]),
        (s) => (argo(s).parameters = [{ src: { dependencyName: 'pr' }, dest: 'spec.x' }]),
        'spec.triggers[0].template.argoWorkflow.parameters[0].src.dependencyName',
      ),
      pair(
        'a parameter with an empty src.dependencyName',
        'a parameter needs src.dependencyName',
        sensor,
        (s) => (argo(s).parameters = [{ src: { dependencyName: '' }, dest: 'spec.x' }]),
        (s) => (argo(s).parameters = ['not a parameter', { src: { dependencyName: 'pr' }, dest: 'spec.x' }]),
        'spec.triggers[0].template.argoWorkflow.parameters[0].src.dependencyName',
      ),
      pair(
        'a parameter without src',
        'a parameter needs src.dependencyName',
        sensor,
        (s) => (argo(s).parameters = [{ dest: 'spec.x' }]),
        (s) => (argo(s).parameters = [{ src: { dependencyName: 'pr' }, dest: 'spec.x' }]),
        'spec.triggers[0].template.argoWorkflow.parameters[0].src',
      ),
      pair(
        'a payload parameter from a dependency the Sensor lacks',
        '"push" is not a dependency of this Sensor (none): the parameter would never resolve',
        sensor,
        (s) => {
          s.dependencies = [];
          s.triggers[0].template = { name: 'r', http: { url: 'http://x', payload: [{ src: { dependencyName: 'push' } }] } };
        },
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x', payload: [{ src: { dependencyName: 'pr' } }] } }),
        'spec.triggers[0].template.http.payload[0].src.dependencyName',
      ),
      pair(
        'a trigger parameter without dest',
        'a parameter needs a dest',
        sensor,
        (s) => (s.triggers[0].parameters = [{ src: { dependencyName: 'pr' }, dest: '' }]),
        (s) => (s.triggers[0].parameters = [{ src: { dependencyName: 'pr' }, dest: 'spec.x' }]),
        'spec.triggers[0].parameters[0].dest',
      ),
      pair(
        'a parameter from a dependency the Sensor lacks',
        '"push" is not a dependency of this Sensor',
        sensor,
        (s) => (s.triggers[0].parameters = [{ src: { dependencyName: 'push' }, dest: 'spec.x' }]),
        (s) => (s.triggers[0].parameters = [{ src: { dependencyName: 'pr' }, dest: 'spec.x' }]),
        'spec.triggers[0].parameters[0].src.dependencyName',
      ),
      pair(
        'the dependencies listed beside a missing one are the named ones',
        '"push" is not a dependency of this Sensor (pr, pr2): the parameter would never resolve',
        sensor,
        (s) => {
          s.dependencies.push({ eventSourceName: 'github', eventName: 'org' }, { name: 'pr2' });
          s.triggers[0].parameters = [{ src: { dependencyName: 'push' }, dest: 'spec.x' }];
        },
        (s) => {
          s.dependencies.push({ eventSourceName: 'github', eventName: 'org' });
          s.triggers[0].parameters = [{ src: { dependencyName: 'pr' }, dest: 'spec.x' }];
        },
        'spec.triggers[0].parameters[0].src.dependencyName',
      ),
      pair(
        'a parameter without dest',
        'needs a dest',
        sensor,
        (s) => (argo(s).parameters = [{ src: { dependencyName: 'pr' } }]),
        (s) => (s.triggers[0].template = { name: 'r', http: { url: 'http://x', payload: [{ src: { dependencyName: 'pr' } }] } }),
        'spec.triggers[0].template.argoWorkflow.parameters[0].dest',
      ),
      pair(
        'an unknown parameter operation',
        'must be one of append, overwrite, prepend',
        sensor,
        (s) => (argo(s).parameters = [{ src: { dependencyName: 'pr' }, dest: 'x', operation: 'replace' }]),
        (s) => (argo(s).parameters = [{ src: { dependencyName: 'pr' }, dest: 'x', operation: 'prepend' }]),
        'spec.triggers[0].template.argoWorkflow.parameters[0].operation',
      ),
    ],
  },
  {
    rule: sensorConditionsRule,
    cases: [
      pair(
        'conditions that do not parse',
        'do not parse',
        sensor,
        (s) => (trigger(s).conditions = 'pr ||'),
        (s) => (trigger(s).conditions = 'pr || (pr && !pr)'),
        'spec.triggers[0].template.conditions',
      ),
      pair(
        'conditions naming a dependency result, which is not a dependency name',
        'trigger "resume": conditions name "pr.Succeeded", which is not a dependency of this Sensor',
        sensor,
        (s) => (trigger(s).conditions = 'pr.Succeeded'),
        (s) => {
          s.dependencies.push({ ...dependency(s), name: 'pr.Succeeded' });
          trigger(s).conditions = 'pr.Succeeded';
        },
      ),
      pair(
        'conditions naming a missing dependency',
        'conditions name "push"',
        sensor,
        (s) => (trigger(s).conditions = 'pr && push'),
        (s) => (trigger(s).conditions = ''),
      ),
      pair(
        'conditions that are not a string',
        'must be a boolean expression',
        sensor,
        (s) => (trigger(s).conditions = true),
        () => {},
      ),
    ],
  },
  {
    rule: sensorGateExistsRule,
    cases: [
      {
        name: 'a resumer argument naming a gate no template has',
        message:
          'gate "waiting-pr-merged" is not a gate of any WorkflowTemplate in this run (gates: waiting-pr-created): this Sensor would resume nothing',
        broken: [sensor(resumerTrigger('waiting-pr-merged')), gated],
        fixed: [sensor(resumerTrigger('waiting-pr-created')), gated],
        path: 'spec.triggers[0].template.k8s.source.resource.spec.arguments.parameters[0].value',
      },
      {
        name: 'a placeholder gate is left to run time',
        message: 'is not a gate',
        broken: [sensor(resumerTrigger('waiting-pr-merged')), gated],
        fixed: [sensor(resumerTrigger('{{gate}}')), gated],
      },
      {
        name: 'the resumer started by an argoWorkflow trigger',
        message: 'gate "waiting-qa" is not a gate',
        broken: [
          sensor(
            (s) =>
              (argo(s).source.resource.spec = {
                workflowTemplateRef: { name: RESUMER_TEMPLATE_NAME },
                arguments: {
                  parameters: [
                    { name: 'other', value: 'x' },
                    { name: RESUMER_GATE_PARAMETER, value: 'waiting-qa' },
                  ],
                },
              }),
          ),
          gated,
        ],
        fixed: [
          sensor(
            (s) =>
              (argo(s).source.resource.spec = {
                workflowTemplateRef: { name: 'other-template' },
                arguments: { parameters: [{ name: RESUMER_GATE_PARAMETER, value: 'waiting-qa' }] },
              }),
          ),
          gated,
        ],
        path: 'spec.triggers[0].template.argoWorkflow.source.resource.spec.arguments.parameters[1].value',
      },
      {
        name: 'only literal values passed to a gate template declare gates',
        message: 'gate "waiting-x" is not a gate',
        broken: [
          sensor(resumerTrigger('waiting-x')),
          workflowTemplate((spec) => {
            spec.templates[0].dag.tasks[1] = {
              name: 'b',
              template: 'gate',
              depends: 'a',
              arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: 'waiting-pr-created' }] },
            };
            spec.templates[0].dag.tasks.push({
              name: 'c',
              template: 'gate',
              arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: '{{inputs.parameters.x}}' }] },
            });
            spec.templates[0].dag.tasks.push({
              name: 'd',
              template: 'work',
              arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: 'waiting-x' }] },
            });
            spec.templates[1].inputs = { parameters: [{ name: 'other' }] };
            spec.templates.push({ name: 'gate', inputs: { parameters: [{ name: 'other' }, { name: GATE_STAGE_INPUT }] }, suspend: {} });
          }),
        ],
        fixed: [sensor(resumerTrigger('waiting-pr-created')), gated],
      },
      {
        name: 'without any gate in the run nothing is checked',
        message: 'is not a gate',
        broken: [sensor(resumerTrigger('waiting-x')), gated],
        fixed: [sensor(resumerTrigger('waiting-x')), workflowTemplate()],
      },
      {
        name: 'a node selector naming a gate no template has',
        message: 'gate "waiting-qa" is not a gate',
        broken: [sensor((s) => (argo(s).args = ['--node-field-selector', gateNodeSelector('waiting-qa')])), gated],
        fixed: [
          sensor(
            (s) =>
              (argo(s).args = [
                '--node-field-selector',
                gateNodeSelector('waiting-pr-created'),
                '--other',
                gateNodeSelector('waiting-qa'),
                '--node-field-selector',
                'phase=Running',
                '--node-field-selector',
              ]),
          ),
          gated,
        ],
        path: 'spec.triggers[0].template.argoWorkflow.args[1]',
      },
      {
        name: 'gates of a ClusterWorkflowTemplate count, listed sorted',
        message:
          'gate "waiting-qa" is not a gate of any WorkflowTemplate in this run (gates: waiting-a, waiting-b): this Sensor would resume nothing; regenerate the Sensors from the same stages',
        broken: [sensor(resumerTrigger('waiting-qa')), twoGates],
        fixed: [sensor(resumerTrigger('waiting-a')), twoGates],
        path: 'spec.triggers[0].template.k8s.source.resource.spec.arguments.parameters[0].value',
      },
      {
        name: 'only the gate input of a gate call declares a gate, and only a literal one',
        message:
          'gate "waiting-other" is not a gate of any WorkflowTemplate in this run (gates: waiting-pr-created): this Sensor would resume nothing',
        broken: [sensor(resumerTrigger('waiting-other')), oddlyGated],
        fixed: [sensor(resumerTrigger('waiting-pr-created')), oddlyGated],
      },
      {
        name: 'only the literal gate argument of the resumer is checked',
        message: 'gate "waiting-qa" is not a gate',
        broken: [sensor(resumerTrigger('waiting-qa')), gated],
        fixed: [
          sensor((s) => {
            resumerTrigger('waiting-pr-created')(s);
            trigger(s).k8s.source.resource.spec.arguments.parameters.push(
              { name: 'other', value: 'waiting-qa' },
              { name: RESUMER_GATE_PARAMETER, valueFrom: { event: 'body.gate' } },
            );
          }),
          gated,
        ],
        path: 'spec.triggers[0].template.k8s.source.resource.spec.arguments.parameters[0].value',
      },
      {
        name: 'triggers without a resumer source are not resumers',
        message: 'gate "waiting-qa" is not a gate',
        broken: [sensor(resumerTrigger('waiting-qa')), gated],
        fixed: [
          sensor((s) =>
            s.triggers.push(
              { template: { name: 'k8s-no-source', k8s: { operation: 'create' } } },
              { template: { name: 'argo-no-source', argoWorkflow: { operation: 'resume' } } },
              { template: { name: 'log', log: {} } },
              { template: { name: 'no-ref', k8s: { source: { resource: { spec: { arguments: {} } } } } } },
            ),
          ),
          gated,
        ],
      },
      {
        name: 'a node selector argument that is not a string is not a selector',
        message: 'gate "waiting-qa" is not a gate',
        broken: [sensor((s) => (argo(s).args = ['--node-field-selector', gateNodeSelector('waiting-qa')])), gated],
        fixed: [sensor((s) => (argo(s).args = ['--node-field-selector', [gateNodeSelector('waiting-qa')]])), gated],
        path: 'spec.triggers[0].template.argoWorkflow.args[1]',
      },
      {
        name: 'a node selector on another input',
        message: `gates are selected by input "${GATE_STAGE_INPUT}"`,
        broken: [sensor((s) => (argo(s).args = ['--node-field-selector', 'inputs.parameters.gate.value=waiting-pr-created'])), gated],
        fixed: [sensor((s) => (argo(s).args = ['--node-field-selector', gateNodeSelector('{{x}}')])), gated],
      },
    ],
  },
  {
    rule: sensorEventSourceRule,
    cases: [
      {
        name: 'an EventSource not in the run',
        message: 'EventSource "gitlab" is not in this run (EventSources: github, webhook)',
        broken: [
          sensor((s) => (dependency(s).eventSourceName = 'gitlab')),
          eventSource(),
          variant('EventSource', 'webhook', { webhook: {} }),
        ],
        fixed: [sensor(), eventSource()],
        path: 'spec.dependencies[0].eventSourceName',
      },
      {
        name: 'an event the EventSource does not publish',
        message: 'EventSource "github" publishes no event "repo" (events: admin, org, team)',
        broken: [sensor((s) => (dependency(s).eventName = 'repo')), eventSource((s) => Object.assign(s.github, { team: {}, admin: {} }))],
        fixed: [sensor(), eventSource()],
        path: 'spec.dependencies[0].eventName',
      },
      {
        name: "the EventSource's own settings are no events",
        message: 'EventSource "github" publishes no event "ports" (events: org)',
        broken: [
          sensor((s) => (dependency(s).eventName = 'ports')),
          eventSource((s) =>
            Object.assign(s, { service: { ports: [] }, template: { container: {} }, eventBusName: 'default', replicas: 1 }),
          ),
        ],
        fixed: [
          sensor(),
          eventSource((s) =>
            Object.assign(s, { service: { ports: [] }, template: { container: {} }, eventBusName: 'default', replicas: 1 }),
          ),
        ],
      },
      {
        name: 'a Sensor alone (no EventSource in the run) is not checked',
        message: 'is not in this run',
        broken: [sensor((s) => (dependency(s).eventSourceName = 'gitlab')), eventSource()],
        fixed: [sensor((s) => (dependency(s).eventSourceName = 'gitlab')), eventBus()],
      },
    ],
  },
  {
    rule: eventsNamespaceRule,
    cases: [
      {
        name: 'an EventBus in another namespace',
        message: 'the Sensor is in namespace argo but its EventBus "default" is in events: events never reach it',
        broken: [sensor(), eventBus('default', { namespace: 'events' })],
        fixed: [
          sensor(),
          eventBus('default'),
          eventBus('default', {}),
          eventBus('other', { namespace: 'events' }),
          manifest('ConfigMap', 'default', {}, { namespace: 'events' }),
        ],
        path: 'metadata.namespace',
      },
      {
        name: 'a Sensor without a namespace is not compared',
        message: 'is in events',
        broken: [sensor(), eventBus('default', { namespace: 'events' }), eventSource(undefined, { namespace: 'events' })],
        fixed: [sensor(undefined, {}), eventBus('default', { namespace: 'events' }), eventSource(undefined, { namespace: 'events' })],
      },
      {
        name: 'an EventSource in another namespace',
        message: 'the Sensor is in namespace argo but EventSource "github" is in events: put them in one namespace',
        broken: [sensor(), eventSource(undefined, { namespace: 'events' })],
        path: 'metadata.namespace',
        fixed: [
          sensor(),
          eventSource(),
          eventSource(undefined, {}),
          variant('EventSource', 'gitlab', { gitlab: {} }, undefined, { namespace: 'events' }),
        ],
      },
      {
        name: 'an EventSource publishing on another EventBus',
        message: 'the Sensor listens on EventBus "default" but EventSource "github" publishes on "jetstream"',
        broken: [sensor(), eventSource((s) => (s.eventBusName = 'jetstream'))],
        fixed: [sensor((s) => (s.eventBusName = 'jetstream')), eventSource((s) => (s.eventBusName = 'jetstream'))],
        path: 'spec.eventBusName',
      },
      {
        name: 'an empty eventBusName is the default bus',
        message: 'publishes on "jetstream"',
        broken: [sensor((s) => (s.eventBusName = '')), eventSource((s) => (s.eventBusName = 'jetstream'))],
        fixed: [sensor((s) => (s.eventBusName = '')), eventSource((s) => (s.eventBusName = 'default'))],
      },
    ],
  },
  {
    rule: specLabelsRule,
    cases: [
      pair(
        'an owner/name label value in workflowMetadata',
        'label value "5dlabs/cto" is not legal',
        workflowTemplate,
        (s) => (s.workflowMetadata = { labels: { repository: '5dlabs/cto' } }),
        (s) => (s.workflowMetadata = { labels: { repository: '5dlabs-cto', 'task-id': '{{workflow.parameters.task-id}}' } }),
      ),
      pair(
        "a template's pod label with a bad key",
        'label key "-x" is not legal',
        workflowTemplate,
        (s) => (s.templates[1].metadata = { labels: { '-x': 'a' } }),
        (s) => (s.templates[1].metadata = { labels: { 'example.com/x': 'a' } }),
      ),
      pair(
        "a resource manifest's label",
        "the manifest's metadata.labels",
        workflowTemplate,
        (s) =>
          (s.templates[1] = { name: 'work', resource: { action: 'create', manifest: 'metadata:\n  labels:\n    stage: "waiting pr"\n' } }),
        (s) =>
          (s.templates[1] = {
            name: 'work',
            resource: { action: 'create', manifest: 'metadata:\n  labels:\n    stage: "{{inputs.parameters.stage}}"\n' },
          }),
      ),
      pair(
        "a Sensor trigger resource's label",
        'label value',
        sensor,
        (s) => (argo(s).source.resource.metadata = { labels: { 'current-stage': 'a'.repeat(64) } }),
        (s) => (argo(s).source.resource.metadata = { labels: { 'current-stage': 'a'.repeat(63) } }),
      ),
      pair(
        'a workflowMetadata label: where it points; a placeholder key is left alone',
        'label value "a b" is not legal',
        workflowTemplate,
        (s) => (s.workflowMetadata = { labels: { stage: 'a b' } }),
        (s) => (s.workflowMetadata = { labels: { stage: 'a-b', '{{workflow.parameters.key}}': 'a b' } }),
        'spec.workflowMetadata.labels.stage',
      ),
      pair(
        "a template's pod label value: where it points",
        'label value "a b" is not legal',
        workflowTemplate,
        (s) => (s.templates[1].metadata = { labels: { stage: 'a b' } }),
        (s) => (s.templates[1].metadata = { labels: { stage: 'a-b' } }),
        'spec.templates[1].metadata.labels.stage',
      ),
      pair(
        "a resource manifest's label in its second document: the whole message and where it points",
        `the manifest's metadata.labels: label value "waiting pr" is not legal`,
        workflowTemplate,
        (s) =>
          (s.templates[1] = {
            name: 'work',
            resource: { action: 'create', manifest: '--- 5\n---\nmetadata:\n  labels:\n    stage: "waiting pr"\n' },
          }),
        (s) => (
          (s.templates[1] = {
            name: 'work',
            resource: { action: 'create', manifest: '--- 5\n---\nkind: ConfigMap\n---\nmetadata:\n  labels:\n    stage: "waiting-pr"\n' },
          }),
          s.templates.push({ name: 'other', resource: { action: 'create', manifest: 5 } })
        ),
        'spec.templates[1].resource.manifest.stage',
      ),
      pair(
        "a Sensor k8s trigger resource's label: where it points",
        'label value "a b" is not legal',
        sensor,
        (s) =>
          s.triggers.push({
            template: { name: 'make', k8s: { operation: 'create', source: { resource: { metadata: { labels: { stage: 'a b' } } } } } },
          }),
        (s) =>
          s.triggers.push(
            { template: { name: 'make', k8s: { operation: 'create', source: { resource: { metadata: { labels: { stage: 'a-b' } } } } } } },
            { template: { name: 'apply', k8s: { operation: 'apply', source: { configmap: { name: 'manifests', key: 'job' } } } } },
            { template: { name: 'bare', k8s: { operation: 'create' } } },
          ),
        'spec.triggers[1].template.k8s.source.resource.metadata.labels.stage',
      ),
      pair(
        "a Sensor argoWorkflow trigger resource's label: where it points",
        'label value "a b" is not legal',
        sensor,
        (s) => (argo(s).source.resource.metadata = { labels: { stage: 'a b' } }),
        (s) => (argo(s).source.resource.metadata = { labels: { stage: '{{x}} b' } }),
        'spec.triggers[0].template.argoWorkflow.source.resource.metadata.labels.stage',
      ),
      {
        name: "a CronWorkflow's spec.workflowMetadata label: the whole message and where it points",
        message:
          "label value \"5dlabs/cto\" is not legal: at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric (or empty): the CronWorkflow copies these labels as they are, placeholders unfilled, onto each Workflow it creates, and the API server refuses that Workflow",
        path: 'spec.workflowMetadata.labels.repository',
        broken: [cronWorkflow({ labels: { repository: '5dlabs/cto' } })],
        fixed: [cronWorkflow({ labels: { repository: '5dlabs-cto' } })],
      },
      {
        name: "a placeholder in a CronWorkflow's spec.workflowMetadata label is copied unfilled",
        message: 'label value "{{workflow.parameters.repo}}" is not legal',
        path: 'spec.workflowMetadata.labels.repository',
        broken: [cronWorkflow({ labels: { repository: '{{workflow.parameters.repo}}' } })],
        fixed: [cronWorkflow({ labels: { repository: 'cto' }, annotations: { note: '{{workflow.parameters.repo}}' } })],
      },
      {
        name: "a placeholder key in a CronWorkflow's spec.workflowMetadata is copied unfilled",
        message: 'label key "{{workflow.parameters.key}}" is not legal',
        broken: [cronWorkflow({ labels: { '{{workflow.parameters.key}}': 'a' } })],
        fixed: [cronWorkflow({ labels: { 'example.com/key': 'a' } })],
      },
      {
        name: "a CronWorkflow's spec.workflowMetadata is checked when its workflowSpec cannot be read",
        message: 'label value "a b" is not legal',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@daily'], workflowMetadata: { labels: { stage: 'a b' } } })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@daily'], workflowMetadata: { labels: { stage: 'a-b' } } })],
      },
      {
        name: "a CronWorkflow's workflowSpec.workflowMetadata label: where it points; a placeholder there is filled in first",
        message: 'label value "a b" is not legal',
        path: 'spec.workflowSpec.workflowMetadata.labels.stage',
        broken: [cronWorkflow(undefined, { labels: { stage: 'a b' } })],
        fixed: [cronWorkflow({ labels: { stage: 'a-b' } }, { labels: { stage: '{{workflow.parameters.stage}}' } })],
      },
    ],
  },
  {
    rule: pvcPruneProtectionRule,
    cases: [
      {
        name: 'a PVC without sync options',
        message: 'Prune=false',
        broken: [manifest('PersistentVolumeClaim', 'workspace', {})],
        fixed: [
          manifest(
            'PersistentVolumeClaim',
            'workspace',
            {},
            { annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Delete=false, Prune=false' } },
          ),
        ],
      },
      {
        name: 'a PVC with Prune=true',
        message: 'Prune=false',
        broken: [
          manifest('PersistentVolumeClaim', 'workspace', {}, { annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false-ish' } }),
        ],
        fixed: [manifest('PersistentVolumeClaim', 'workspace', {}, { annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false' } })],
      },
      {
        name: 'a PVC without sync options: where it points',
        message: `no ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: Prune=false: an ArgoCD sync that no longer finds this claim in Git deletes it and the work on it`,
        path: 'metadata.annotations',
        broken: [
          manifest('PersistentVolumeClaim', 'workspace', {}, { annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: ['Prune=false'] } }),
        ],
        fixed: [
          manifest(
            'PersistentVolumeClaim',
            'workspace',
            {},
            { annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false,Delete=false' } },
          ),
        ],
      },
    ],
  },
];
