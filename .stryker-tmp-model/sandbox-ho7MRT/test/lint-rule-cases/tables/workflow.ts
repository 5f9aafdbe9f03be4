/** Cases for the rules on Argo Workflows kinds: names, template types and references, DAGs, fields, arguments, variables. */
// @ts-nocheck

import { argumentsSuppliedRule, argumentValueRule } from '../../../src/validate/rules/arguments';
import { cronScheduleRule } from '../../../src/validate/rules/cron-workflow';
import {
  dagArgumentDependencyRule,
  dagCycleRule,
  dagDependencyRule,
  dagDependsMixedRule,
  dagDependsSyntaxRule,
  dagTargetRule,
  dagTasksRule,
} from '../../../src/validate/rules/dag';
import { resourceTemplateRule } from '../../../src/validate/rules/resource-template';
import {
  loopSourceRule,
  outputValueFromRule,
  retryStrategyRule,
  suspendDurationRule,
  templateParallelismRule,
  templateTimeoutRule,
} from '../../../src/validate/rules/template-fields';
import { argoNamesRule } from '../../../src/validate/rules/template-names';
import { templateReferenceRule } from '../../../src/validate/rules/template-references';
import { templateTypeRule } from '../../../src/validate/rules/template-type';
import { variableReferenceRule } from '../../../src/validate/rules/variables';
import { manifest, pair, workflow, workflowTemplate, type RuleTable } from '../cases';

const wt = workflowTemplate;
const taskB = (spec: any) => spec.templates[0].dag.tasks[1];
const work = (spec: any) => spec.templates[1];

export const WORKFLOW_TABLES: RuleTable[] = [
  {
    rule: argoNamesRule,
    cases: [
      pair(
        'a template without a name',
        'every template needs a name',
        wt,
        (s) => delete work(s).name,
        () => {},
        'spec.templates[1].name',
      ),
      pair(
        "an '_' in a template name",
        'must match ^[a-zA-Z0-9][-a-zA-Z0-9]*$',
        wt,
        (s) => (s.templates[0].name = 'main_dag'),
        (s) => (s.templates[0].name = 'main-dag'),
      ),
      pair(
        'a task name of 129 characters (128 is the limit)',
        'longer than 128 characters',
        wt,
        (s) => (taskB(s).name = 'b'.repeat(129)),
        (s) => (taskB(s).name = 'b'.repeat(128)),
      ),
      pair(
        'a step name of 129 characters',
        'step name',
        wt,
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 's'.repeat(129), template: 'work' }]] }),
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 's'.repeat(128), template: 'work' }]] }),
      ),
      pair(
        'a step name with a placeholder counts as one character per placeholder',
        'longer than 128',
        wt,
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: `${'s'.repeat(128)}{{item}}`, template: 'work' }]] }),
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: `${'s'.repeat(127)}{{item}}`, template: 'work' }]] }),
      ),
      pair(
        'two tasks named alike',
        'is used twice',
        wt,
        (s) => (taskB(s).name = 'a'),
        (s) => (taskB(s).name = 'c'),
      ),
      pair(
        'a parameter name with a dot',
        'may only hold letters',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'a.b' }] }),
        (s) => (work(s).inputs = { parameters: [{ name: 'a_b-1' }] }),
      ),
      pair(
        'a parameter without a name',
        'every parameter needs a name',
        wt,
        (s) => (s.arguments = { parameters: [{ value: 'x' }] }),
        (s) => (s.arguments = { parameters: [{ name: 'p', value: 'x' }] }),
      ),
      pair(
        'an artifact name with a space',
        'artifact name',
        wt,
        (s) => (work(s).outputs = { artifacts: [{ name: 'a b', path: '/x' }] }),
        (s) => (work(s).outputs = { artifacts: [{ name: 'a.b_{{x}}', path: '/x' }] }),
      ),
      pair(
        'an argument declared twice',
        'is declared twice',
        wt,
        (s) =>
          (taskB(s).arguments = {
            parameters: [
              { name: 'p', value: '1' },
              { name: 'p', value: '2' },
            ],
          }),
        (s) =>
          (taskB(s).arguments = {
            parameters: [
              { name: 'p', value: '1' },
              { name: 'q', value: '2' },
            ],
          }),
      ),
      pair(
        'a template with an empty name',
        'every template needs a name',
        wt,
        (s) => (work(s).name = ''),
        () => {},
        'spec.templates[1].name',
      ),
      pair(
        'a template name: the whole message and where it points',
        `template name "main_dag" must match ^[a-zA-Z0-9][-a-zA-Z0-9]*$ (no '_' or '.')`,
        wt,
        (s) => (s.templates[0].name = 'main_dag'),
        (s) => (s.templates[0].name = 'main-dag'),
        'spec.templates[0].name',
      ),
      pair(
        'a task name too long: the whole message and where it points',
        `DAG task name "${'b'.repeat(129)}" is longer than 128 characters`,
        wt,
        (s) => (taskB(s).name = 'b'.repeat(129)),
        (s) => (taskB(s).name = 'b'.repeat(128)),
        'spec.templates[0].dag.tasks[1].name',
      ),
      pair(
        'two steps named alike: the whole message and where it points',
        'step name "s" is used twice; names must be unique',
        wt,
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 's', template: 'work' }], [{ name: 's', template: 'work' }]] }),
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [[{ name: 's', template: 'work' }], [{ name: '{{item.x}}', template: 'work', withItems: [{ x: 't' }] }]],
          }),
        'spec.templates[0].steps[1][0].name',
      ),
      pair(
        'a parameter name: the whole message and where it points; a placeholder name is left alone',
        `parameter name "a.b" may only hold letters, digits, '-' and '_'`,
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'a.b' }] }),
        (s) => (work(s).inputs = { parameters: [{ name: '{{workflow.parameters.name}}' }, { name: 'a_b' }] }),
        'spec.templates[1].inputs.parameters[0].name',
      ),
      pair(
        'an artifact with an empty name',
        'every artifact needs a name',
        wt,
        (s) => (work(s).outputs = { artifacts: [{ name: '', path: '/x' }] }),
        (s) => (work(s).outputs = { artifacts: [{ name: 'x', path: '/x' }] }),
        'spec.templates[1].outputs.artifacts[0].name',
      ),
      pair(
        'an artifact name: the whole message',
        `artifact name "a b" may only hold letters, digits, '-' and '_'`,
        wt,
        (s) => (work(s).outputs = { artifacts: [{ name: 'a b', path: '/x' }] }),
        (s) => (work(s).outputs = { artifacts: [{ name: 'a.b', path: '/x' }] }),
        'spec.templates[1].outputs.artifacts[0].name',
      ),
      pair(
        "a Workflow's parameter declared twice: the whole message and where it points; a parameter and an artifact may share a name",
        'parameter "p" is declared twice',
        wt,
        (s) =>
          (s.arguments = {
            parameters: [
              { name: 'p', value: '1' },
              { name: 'p', value: '2' },
            ],
          }),
        (s) => (s.arguments = { parameters: [{ name: 'p', value: '1' }], artifacts: [{ name: 'p', raw: { data: 'x' } }] }),
        'spec.arguments.parameters[1].name',
      ),
      pair(
        'a step argument declared twice',
        'artifact "x" is declared twice',
        wt,
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [
              [
                {
                  name: 's',
                  template: 'work',
                  arguments: {
                    artifacts: [
                      { name: 'x', raw: { data: '1' } },
                      { name: 'x', raw: { data: '2' } },
                    ],
                  },
                },
              ],
            ],
          }),
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [
              [
                {
                  name: 's',
                  template: 'work',
                  arguments: {
                    artifacts: [
                      { name: 'x', raw: { data: '1' } },
                      { name: 'y', raw: { data: '2' } },
                    ],
                  },
                },
              ],
            ],
          }),
        'spec.templates[0].steps[0][0].arguments.artifacts[1].name',
      ),
      pair(
        "entries of a parameter list that are not objects are the schema's finding",
        'every parameter needs a name',
        wt,
        (s) => (s.arguments = { parameters: [{ value: 'x' }] }),
        (s) => (s.arguments = { parameters: ['p', null, { name: 'q', value: 'x' }] }),
      ),
    ],
  },
  {
    rule: templateTypeRule,
    cases: [
      pair(
        'a template with no type',
        'has no type',
        wt,
        (s) => delete work(s).container,
        () => {},
      ),
      pair(
        'a template with two types',
        'has several types (container, script)',
        wt,
        (s) => (work(s).script = { image: 'alpine', source: 'true' }),
        () => {},
      ),
      pair(
        'a template with no type: the whole message and where it points',
        'template "work" has no type: give it one of container, script, dag, steps, resource, suspend, containerSet, data, http, plugin',
        wt,
        (s) => (work(s).container = null),
        (s) => (work(s).script = null),
        'spec.templates[1]',
      ),
      pair(
        'a template with two types: the whole message',
        'template "work" has several types (container, script): split it into one template per type',
        wt,
        (s) => (work(s).script = { image: 'alpine', source: 'true' }),
        (s) => ((work(s).script = { image: 'alpine', source: 'true' }), (work(s).container = undefined)),
        'spec.templates[1]',
      ),
      pair(
        'a template whose name is not a string is named ""; entries that are not templates are skipped',
        'template "" has no type: give it one of',
        wt,
        (s) => ((work(s).name = 7), delete work(s).container),
        (s) => ((work(s).name = 7), s.templates.push('not a template', null)),
        'spec.templates[1]',
      ),
    ],
  },
  {
    rule: templateReferenceRule,
    cases: [
      pair(
        'an entrypoint that names no template',
        'entrypoint names template "start"',
        wt,
        (s) => (s.entrypoint = 'start'),
        () => {},
        'spec.entrypoint',
      ),
      pair(
        'a Workflow without an entrypoint',
        'needs spec.entrypoint',
        workflow,
        (s) => delete s.entrypoint,
        () => {},
      ),
      pair(
        'an onExit that names no template',
        'onExit names template',
        wt,
        (s) => (s.onExit = 'cleanup'),
        (s) => (s.onExit = 'work'),
      ),
      pair(
        'a task calling a missing template',
        'names template "wrok"',
        wt,
        (s) => (taskB(s).template = 'wrok'),
        () => {},
      ),
      pair(
        'a task naming no template',
        'names no template',
        wt,
        (s) => delete taskB(s).template,
        () => {},
      ),
      pair(
        'a task with template and templateRef',
        'sets template and templateRef',
        wt,
        (s) => (taskB(s).templateRef = { name: 'other', template: 'x' }),
        () => {},
      ),
      pair(
        'a templateRef without its template',
        'templateRef needs template',
        wt,
        (s) => taskB(s) && ((taskB(s).templateRef = { name: 'other' }), delete taskB(s).template),
        (s) => ((taskB(s).templateRef = { name: 'other', template: 'x' }), delete taskB(s).template),
      ),
      pair(
        'a templateRef that is not an object',
        'must be an object',
        wt,
        (s) => ((taskB(s).templateRef = 'other'), delete taskB(s).template),
        () => {},
      ),
      pair(
        'a hook without an expression',
        'needs an expression',
        wt,
        (s) => (s.hooks = { running: { template: 'work' } }),
        (s) => (s.hooks = { running: { template: 'work', expression: 'workflow.status == "Running"' } }),
      ),
      pair(
        'an exit hook naming a missing template',
        'hook "exit" names template',
        wt,
        (s) => (s.hooks = { exit: { template: 'gone' } }),
        (s) => (s.hooks = { exit: { template: 'work' } }),
      ),
      pair(
        'a task hook naming a missing template',
        'names template "gone"',
        wt,
        (s) => (taskB(s).hooks = { exit: { template: 'gone' } }),
        (s) => (taskB(s).hooks = { exit: { template: 'work' } }),
      ),
      pair(
        'templates beside a workflowTemplateRef',
        'remove spec.templates',
        workflow,
        (s) => (s.workflowTemplateRef = { name: 'play' }),
        (s) => ((s.workflowTemplateRef = { name: 'play' }), delete s.templates, delete s.entrypoint),
      ),
      pair(
        'an empty template name in a call',
        'must name a template',
        wt,
        (s) => (taskB(s).template = ''),
        () => {},
      ),
      {
        name: 'a templateRef to a template the referenced WorkflowTemplate lacks',
        message: 'template "nope" is not defined in WorkflowTemplate "lib"',
        broken: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: 'nope' }), delete taskB(s).template)),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
        fixed: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: 'x' }), delete taskB(s).template)),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
      },
      {
        name: 'a cluster-scoped templateRef looks in ClusterWorkflowTemplates',
        message: 'ClusterWorkflowTemplate "lib"',
        broken: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: 'y', clusterScope: true }), delete taskB(s).template)),
          manifest('ClusterWorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
        fixed: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: 'x', clusterScope: true }), delete taskB(s).template)),
          manifest('ClusterWorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
      },
      pair(
        'a task calling a missing template, pinned with the task and the path',
        '"b" names template "wrok", which is not defined in spec.templates',
        wt,
        (s) => (taskB(s).template = 'wrok'),
        () => {},
        'spec.templates[0].dag.tasks[1].template',
      ),
      pair(
        'a template name that is not a string',
        '"b" must name a template',
        wt,
        (s) => (taskB(s).template = 5),
        () => {},
        'spec.templates[0].dag.tasks[1].template',
      ),
      pair(
        'a templateRef without name and template, pinned with the path',
        'templateRef needs name and template',
        wt,
        (s) => ((taskB(s).templateRef = {}), delete taskB(s).template),
        (s) => ((taskB(s).templateRef = { name: 'other', template: 'x' }), delete taskB(s).template),
        'spec.templates[0].dag.tasks[1].templateRef',
      ),
      pair(
        'a templateRef whose name is not a string',
        'templateRef needs name',
        wt,
        (s) => ((taskB(s).templateRef = { name: 5, template: 'x' }), delete taskB(s).template),
        (s) => ((taskB(s).templateRef = { name: 'five', template: 'x' }), delete taskB(s).template),
      ),
      pair(
        'a templateRef with an empty name',
        'templateRef needs name',
        wt,
        (s) => ((taskB(s).templateRef = { name: '', template: 'x' }), delete taskB(s).template),
        (s) => ((taskB(s).templateRef = { name: 'lib', template: 'x' }), delete taskB(s).template),
      ),
      {
        name: 'a templateRef into the run, pinned with its path; a placeholder template is known only at run time',
        message: 'template "nope" is not defined in WorkflowTemplate "lib"',
        path: 'spec.templates[0].dag.tasks[1].templateRef.template',
        broken: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: 'nope' }), delete taskB(s).template)),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
        fixed: [
          wt((s) => ((taskB(s).templateRef = { name: 'lib', template: '{{inputs.parameters.t}}' }), delete taskB(s).template)),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 'x', container: { image: 'a' } }] }),
        ],
      },
      pair(
        'an inline template is a call of its own',
        '"b" names no template: set template or templateRef',
        wt,
        (s) => delete taskB(s).template,
        (s) => ((taskB(s).inline = { container: { image: 'alpine:3.23' } }), delete taskB(s).template),
        'spec.templates[0].dag.tasks[1]',
      ),
      pair(
        'a hook whose expression is not a string, pinned with its path',
        'hook "running" needs an expression (only the "exit" hook runs without one)',
        wt,
        (s) => (s.hooks = { running: { template: 'work', expression: 5 } }),
        (s) => (s.hooks = { running: { template: 'work', expression: 'true' }, other: 'not a hook' }),
        'spec.hooks.running.expression',
      ),
      pair(
        'a hook with an empty expression',
        'hook "running" needs an expression',
        wt,
        (s) => (s.hooks = { running: { template: 'work', expression: '' } }),
        (s) => (s.hooks = { running: { template: 'work', expression: 'true' } }),
      ),
      pair(
        'templates beside a workflowTemplateRef, pinned with the path',
        'a workflow with workflowTemplateRef takes its templates from the WorkflowTemplate: remove spec.templates',
        workflow,
        (s) => (s.workflowTemplateRef = { name: 'play' }),
        (s) => ((s.workflowTemplateRef = { name: 'play' }), delete s.templates),
        'spec.templates',
      ),
      pair(
        'a Workflow entrypoint that is not a string',
        'a Workflow needs spec.entrypoint (or spec.workflowTemplateRef)',
        workflow,
        (s) => (s.entrypoint = 5),
        () => {},
        'spec.entrypoint',
      ),
      pair(
        'an empty Workflow entrypoint',
        'a Workflow needs spec.entrypoint',
        workflow,
        (s) => (s.entrypoint = ''),
        () => {},
      ),
      {
        name: 'a WorkflowTemplate without an entrypoint passes',
        message: 'a Workflow needs spec.entrypoint',
        broken: [workflow((s) => delete s.entrypoint)],
        fixed: [wt((s) => delete s.entrypoint)],
      },
      {
        name: 'a CronWorkflow needs an entrypoint in its workflowSpec',
        message: 'a Workflow needs spec.entrypoint',
        path: 'spec.workflowSpec.entrypoint',
        broken: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: { templates: [{ name: 'w', container: { image: 'a' } }] },
          }),
        ],
        fixed: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: { entrypoint: 'w', templates: [{ name: 'w', container: { image: 'a' } }] },
          }),
        ],
      },
      pair(
        'an onExit that names no template, pinned with the path',
        'onExit names template "cleanup", which is not defined in spec.templates',
        wt,
        (s) => (s.onExit = 'cleanup'),
        (s) => (s.onExit = 'work'),
        'spec.onExit',
      ),
    ],
  },
  {
    rule: dagTasksRule,
    cases: [
      pair(
        'a DAG without tasks',
        'has no tasks',
        wt,
        (s) => (s.templates[0].dag.tasks = []),
        () => {},
        'spec.templates[0].dag.tasks',
      ),
    ],
  },
  {
    rule: dagDependsSyntaxRule,
    cases: [
      pair(
        'depends that does not parse',
        'does not parse',
        wt,
        (s) => (taskB(s).depends = 'a &&'),
        (s) => (taskB(s).depends = '(a.Succeeded || a.Skipped) && !a.Failed'),
      ),
      pair(
        'an unclosed parenthesis',
        'is never closed',
        wt,
        (s) => (taskB(s).depends = '(a'),
        (s) => (taskB(s).depends = '(a)'),
      ),
      pair(
        'depends that is not a string',
        'must be a string expression',
        wt,
        (s) => (taskB(s).depends = ['a']),
        (s) => (taskB(s).depends = 'a'),
      ),
      pair(
        'an empty depends',
        'the expression is empty',
        wt,
        (s) => (taskB(s).depends = ' '),
        (s) => (taskB(s).depends = '{{inputs.parameters.d}}'),
      ),
      pair(
        'depends that is not a string, pinned with the path',
        'depends must be a string expression',
        wt,
        (s) => (taskB(s).depends = 5),
        () => {},
        'spec.templates[0].dag.tasks[1].depends',
      ),
      pair(
        'depends that does not parse, pinned with the path',
        'depends "a &&" does not parse: ',
        wt,
        (s) => (taskB(s).depends = 'a &&'),
        () => {},
        'spec.templates[0].dag.tasks[1].depends',
      ),
    ],
  },
  {
    rule: dagDependencyRule,
    cases: [
      pair(
        'depends on a missing task',
        'depends names "c"',
        wt,
        (s) => (taskB(s).depends = 'c'),
        () => {},
      ),
      pair(
        'an unknown .Result suffix',
        'the result must be one of',
        wt,
        (s) => (taskB(s).depends = 'a.Finished'),
        (s) => (taskB(s).depends = 'a.Errored'),
      ),
      pair(
        'every known result passes',
        'the result must be one of',
        wt,
        (s) => (taskB(s).depends = 'a.Succeeded && a.Bogus'),
        (s) => (taskB(s).depends = 'a.Succeeded || a.Failed || a.Errored || a.Skipped || a.Omitted || a.Daemoned'),
      ),
      pair(
        'AnySucceeded on a task without a loop',
        'only applies to a task with withItems',
        wt,
        (s) => (taskB(s).depends = 'a.AnySucceeded'),
        (s) => ((taskB(s).depends = 'a.AllFailed'), (s.templates[0].dag.tasks[0].withItems = [1, 2])),
      ),
      pair(
        'a dependencies entry naming no task',
        'dependency "c" is not a task',
        wt,
        (s) => ((taskB(s).dependencies = ['c']), delete taskB(s).depends),
        (s) => ((taskB(s).dependencies = ['a']), delete taskB(s).depends),
      ),
      pair(
        'a dependencies entry naming no task, pinned with the path; a non-string entry is left to the schema',
        'dependency "zz" is not a task of this DAG',
        wt,
        (s) => (delete taskB(s).depends, (taskB(s).dependencies = ['zz'])),
        (s) => (delete taskB(s).depends, (taskB(s).dependencies = ['a', 5])),
        'spec.templates[0].dag.tasks[1].dependencies',
      ),
      pair(
        'an unknown result, the whole message and the path',
        '"a.Done": the result must be one of Succeeded, Failed, Errored, Skipped, Omitted, Daemoned, AnySucceeded, AllFailed',
        wt,
        (s) => (taskB(s).depends = 'a.Done'),
        (s) => (taskB(s).depends = 'a.Succeeded'),
        'spec.templates[0].dag.tasks[1].depends',
      ),
      pair(
        'AnySucceeded on a task that loops over a parameter',
        'only applies to a task with withItems, withParam or withSequence',
        wt,
        (s) => (taskB(s).depends = 'a.AnySucceeded'),
        (s) => ((s.templates[0].dag.tasks[0].withParam = '[1]'), (taskB(s).depends = 'a.AnySucceeded')),
      ),
      pair(
        'AllFailed on a task that loops over a sequence',
        '"a.AllFailed" only applies to a task with withItems, withParam or withSequence',
        wt,
        (s) => (taskB(s).depends = 'a.AllFailed'),
        (s) => ((s.templates[0].dag.tasks[0].withSequence = { count: '2' }), (taskB(s).depends = 'a.AllFailed')),
      ),
    ],
  },
  {
    rule: dagDependsMixedRule,
    cases: [
      pair(
        'depends and dependencies in one DAG',
        'write this task',
        wt,
        (s) => (s.templates[0].dag.tasks[0].dependencies = []),
        () => {},
      ),
      pair(
        'continueOn in a DAG that uses depends',
        'continueOn cannot be used',
        wt,
        (s) => (s.templates[0].dag.tasks[0].continueOn = { failed: true }),
        (s) => ((s.templates[0].dag.tasks[0].continueOn = { failed: true }), (taskB(s).dependencies = ['a']), delete taskB(s).depends),
        'spec.templates[0].dag.tasks[0].continueOn',
      ),
      pair(
        'a digit-led task name with depends',
        'starts with a digit',
        wt,
        (s) => (s.templates[0].dag.tasks[0].name = '1a'),
        (s) => ((s.templates[0].dag.tasks[0].name = '1a'), delete taskB(s).depends),
      ),
      pair(
        'a digit-led task name with dependencies only',
        'starts with a digit',
        wt,
        (s) => ((s.templates[0].dag.tasks[0].name = '1a'), delete taskB(s).depends, (taskB(s).dependencies = ['1a'])),
        (s) => ((s.templates[0].dag.tasks[0].name = 'x1a'), delete taskB(s).depends, (taskB(s).dependencies = ['x1a'])),
      ),
      pair(
        'dependencies beside depends, pinned with the path',
        "this DAG uses 'depends': write this task's dependencies as a depends expression too",
        wt,
        (s) => (s.templates[0].dag.tasks[0].dependencies = []),
        () => {},
        'spec.templates[0].dag.tasks[0].dependencies',
      ),
      pair(
        'a digit-led task name, pinned with the path',
        'task name "1a" starts with a digit, which depends/dependencies cannot refer to',
        wt,
        (s) => s.templates[0].dag.tasks.push({ name: '1a', template: 'work' }),
        (s) => s.templates[0].dag.tasks.push({ name: 'a1', template: 'work' }),
        'spec.templates[0].dag.tasks[2].name',
      ),
      pair(
        "a task name that is not a string is the schema's finding, not a digit-led name",
        'starts with a digit',
        wt,
        (s) => (s.templates[0].dag.tasks[0].name = '1a'),
        (s) => (s.templates[0].dag.tasks[0].name = 1),
      ),
    ],
  },
  {
    rule: dagCycleRule,
    cases: [
      pair(
        'a two-task cycle',
        'dependency cycle: a -> b -> a',
        wt,
        (s) => (s.templates[0].dag.tasks[0].depends = 'b'),
        () => {},
      ),
      pair(
        'a task depending on itself through dependencies',
        'dependency cycle: a -> a',
        wt,
        (s) => ((s.templates[0].dag.tasks[0].dependencies = ['a']), (taskB(s).dependencies = ['a']), delete taskB(s).depends),
        (s) => ((taskB(s).dependencies = ['a']), delete taskB(s).depends),
      ),
      pair(
        'a longer cycle',
        'a -> c -> b -> a',
        wt,
        (s) => ((s.templates[0].dag.tasks[0].depends = 'c'), s.templates[0].dag.tasks.push({ name: 'c', template: 'work', depends: 'b' })),
        (s) => s.templates[0].dag.tasks.push({ name: 'c', template: 'work', depends: 'b' }),
      ),
    ],
  },
  {
    rule: dagTargetRule,
    cases: [
      pair(
        'a target naming no task',
        'target "z" is not a task',
        wt,
        (s) => (s.templates[0].dag.target = 'a z'),
        (s) => (s.templates[0].dag.target = 'a  b'),
      ),
      pair(
        'a target naming no task, pinned with the path; names split on any whitespace',
        'target "c" is not a task of this DAG',
        wt,
        (s) => (s.templates[0].dag.target = 'a c'),
        (s) => (s.templates[0].dag.target = ' a  b '),
        'spec.templates[0].dag.target',
      ),
      pair(
        'a target that is not a string is left to the schema',
        'target "c" is not a task of this DAG',
        wt,
        (s) => (s.templates[0].dag.target = 'c'),
        (s) => (s.templates[0].dag.target = 5),
      ),
    ],
  },
  {
    rule: dagArgumentDependencyRule,
    cases: [
      pair(
        'an argument from a task that does not run before',
        'needs task "b" to have run',
        wt,
        (s) => (s.templates[0].dag.tasks[0].arguments = { parameters: [{ name: 'p', value: '{{tasks.b.outputs.result}}' }] }),
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{tasks.a.outputs.result}}' }] }),
      ),
      pair(
        'an artifact from a task two steps away is fine once it is an ancestor',
        'needs task "c"',
        wt,
        (s) => (
          s.templates[0].dag.tasks.push({ name: 'c', template: 'work' }),
          (taskB(s).arguments = { artifacts: [{ name: 'x', from: '{{tasks.c.outputs.artifacts.x}}' }] })
        ),
        (s) => (
          s.templates[0].dag.tasks.unshift({ name: 'c', template: 'work' }),
          (s.templates[0].dag.tasks[1].depends = 'c'),
          (taskB(s).arguments = { artifacts: [{ name: 'x', from: '{{tasks.c.outputs.artifacts.x}}' }] })
        ),
      ),
    ],
  },
  {
    rule: variableReferenceRule,
    cases: [
      pair(
        'an undeclared input',
        'the template declares no input parameters.q',
        wt,
        (s) => (work(s).container.args = ['{{inputs.parameters.q}}']),
        (s) => ((work(s).inputs = { parameters: [{ name: 'q' }] }), (work(s).container.args = ['{{inputs.parameters.q}}'])),
      ),
      pair(
        'an undeclared workflow.annotations.X',
        'annotation owner is not declared',
        wt,
        (s) => (work(s).container.args = ['{{workflow.annotations.owner}}']),
        (s) => ((s.workflowMetadata = { annotations: { owner: 'me' } }), (work(s).container.args = ['{{workflow.annotations.owner}}'])),
      ),
      {
        name: "workflow.annotations.X declared in the object's own metadata",
        message: 'annotation owner',
        broken: [wt((s) => (work(s).container.args = ['{{workflow.annotations.owner}}']))],
        fixed: [wt((s) => (work(s).container.args = ['{{workflow.annotations.owner}}']), { annotations: { owner: 'me' } })],
      },
      pair(
        'an undeclared workflow.labels.X',
        'label task-id is not declared',
        wt,
        (s) => (work(s).container.args = ['{{workflow.labels.task-id}}']),
        (s) => (
          (s.workflowMetadata = { labelsFrom: { 'task-id': { expression: '1' } } }),
          (work(s).container.args = ['{{workflow.labels.task-id}}'])
        ),
      ),
      pair(
        'an undeclared Workflow parameter',
        'spec.arguments declares no parameter p',
        workflow,
        (s) => (work(s).container.args = ['{{workflow.parameters.p}}']),
        (s) => ((s.arguments = { parameters: [{ name: 'p', value: '1' }] }), (work(s).container.args = ['{{workflow.parameters.p}}'])),
      ),
      pair(
        'workflow.failures without onExit',
        'only defined in an onExit handler',
        wt,
        (s) => (work(s).container.args = ['{{workflow.failures}}']),
        (s) => ((s.onExit = 'work'), (work(s).container.args = ['{{workflow.failures}}'])),
      ),
      pair(
        'an unknown workflow variable',
        'is not a workflow variable Argo knows',
        wt,
        (s) => (work(s).container.args = ['{{workflow.owner}}']),
        (s) =>
          (work(s).container.args = [
            '{{workflow.name}} {{workflow.creationTimestamp.Y}} {{workflow.duration}} {{=workflow.owner}} {{other.x}}',
          ]),
      ),
      pair(
        'item outside a loop in a DAG',
        'item is only defined',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }),
        (s) => ((taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }), (taskB(s).withItems = [{ x: 1 }])),
      ),
      pair(
        'a missing step',
        'there is no step "x"',
        wt,
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [[{ name: 's', template: 'work', arguments: { parameters: [{ name: 'p', value: '{{steps.x.outputs.result}}' }] } }]],
          }),
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [
              [
                {
                  name: 's',
                  template: 'work',
                  arguments: { parameters: [{ name: 'p', value: '{{steps.s.outputs.result}} {{steps.name}}' }] },
                },
              ],
            ],
          }),
      ),
      pair(
        'a missing task',
        'there is no task "x"',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{tasks.x.outputs.result}}' }] }),
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{tasks.a.outputs.result}} {{tasks.name}}' }] }),
      ),
      pair(
        'a global output is a workflow variable once declared',
        'outputs.parameters.g',
        wt,
        (s) => (work(s).container.args = ['{{workflow.outputs.parameters.g}}']),
        (s) => (
          (work(s).outputs = { parameters: [{ name: 'r', globalName: 'g', valueFrom: { path: '/r' } }] }),
          (work(s).container.args = ['{{workflow.outputs.parameters.g}}'])
        ),
      ),
      pair(
        'workflow.priority only with spec.priority',
        'workflow.priority',
        wt,
        (s) => (work(s).container.args = ['{{workflow.priority}}']),
        (s) => ((s.priority = 1), (work(s).container.args = ['{{workflow.priority}}'])),
      ),
      pair(
        'a reference with spaces inside the braces is checked',
        '{{inputs.parameters.q}} cannot be resolved: the template declares no input parameters.q',
        wt,
        (s) => (work(s).container.args = ['{{ inputs.parameters.q }}']),
        (s) => ((work(s).inputs = { parameters: [{ name: 'q' }] }), (work(s).container.args = ['{{ inputs.parameters.q }}'])),
        'spec.templates[1].container.args[0]',
      ),
      pair(
        'input artifacts, whole input lists, outputs and pod variables resolve',
        'the template declares no input artifacts.src.path',
        wt,
        (s) => (work(s).container.args = ['{{inputs.artifacts.src.path}}']),
        (s) => (
          (work(s).inputs = { artifacts: [{ name: 'src', path: '/src' }] }),
          (work(s).container.args = [
            '{{inputs.artifacts.src.path}} {{inputs.artifacts.src}} {{inputs.parameters}} {{inputs.artifacts}}',
            '{{outputs.parameters.r}} {{pod.name}}',
          ]),
          (work(s).metadata = null)
        ),
        'spec.templates[1].container.args[0]',
      ),
      pair(
        'an undeclared Workflow parameter, named in full',
        '{{workflow.parameters.run-id}} cannot be resolved: spec.arguments declares no parameter run-id',
        workflow,
        (s) => (work(s).container.args = ['{{workflow.parameters.run-id}}']),
        (s) => (
          (s.arguments = { parameters: [{ name: 'run-id', value: '1' }] }), (work(s).container.args = ['{{workflow.parameters.run-id}}'])
        ),
      ),
      {
        name: 'a WorkflowTemplate takes any workflow parameter (the submitting Workflow may give it)',
        message: 'spec.arguments declares no parameter p',
        broken: [workflow((s) => (work(s).container.args = ['{{workflow.parameters.p}}']))],
        fixed: [wt((s) => (work(s).container.args = ['{{workflow.parameters.p}}']))],
      },
      {
        name: 'a ClusterWorkflowTemplate takes any workflow parameter',
        message: 'spec.arguments declares no parameter p',
        broken: [workflow((s) => (work(s).container.args = ['{{workflow.parameters.p}}']))],
        fixed: [
          manifest('ClusterWorkflowTemplate', 'play', {
            ...workflow((s) => (work(s).container.args = ['{{workflow.parameters.p}}'])).object.spec,
          }),
        ],
      },
      {
        name: 'a Workflow that references a WorkflowTemplate is not checked (its parameters come from there)',
        message: 'spec.arguments declares no parameter p',
        broken: [workflow((s) => (work(s).container.args = ['{{workflow.parameters.p}}']))],
        fixed: [workflow((s) => ((s.workflowTemplateRef = { name: 'play' }), (work(s).container.args = ['{{workflow.parameters.p}}'])))],
      },
      {
        name: "a CronWorkflow's labels come from its spec.workflowMetadata",
        message: 'label team is not declared',
        path: 'spec.workflowSpec.templates[0].container.args[0]',
        broken: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: { entrypoint: 'w', templates: [{ name: 'w', container: { image: 'a', args: ['{{workflow.labels.team}}'] } }] },
          }),
        ],
        fixed: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowMetadata: { labels: { team: 'web' } },
            workflowSpec: { entrypoint: 'w', templates: [{ name: 'w', container: { image: 'a', args: ['{{workflow.labels.team}}'] } }] },
          }),
        ],
      },
      pair(
        'item in a leaf template (a loop may call it) resolves; in a steps template without a loop it does not',
        'item is only defined in a step or task with withItems, withParam or withSequence',
        wt,
        (s) =>
          (s.templates[0] = {
            name: 'main',
            steps: [[{ name: 's', template: 'work', arguments: { parameters: [{ name: 'p', value: '{{item.x}}' }] } }]],
          }),
        (s) => (work(s).container.args = ['{{item.x}}']),
        'spec.templates[0].steps[0][0].arguments.parameters[0].value',
      ),
      pair(
        'item in a DAG whose loop is withParam',
        'item is only defined',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }),
        (s) => (
          (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }), (taskB(s).withParam = '{{tasks.a.outputs.result}}')
        ),
      ),
      pair(
        'item in a DAG whose loop is withSequence',
        'item is only defined',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }),
        (s) => ((taskB(s).arguments = { parameters: [{ name: 'p', value: '{{item.x}}' }] }), (taskB(s).withSequence = { count: '2' })),
      ),
      {
        name: 'outputs.* is left to Argo in a Workflow too',
        message: 'spec.arguments declares no parameter r',
        broken: [workflow((s) => (work(s).container.args = ['{{workflow.parameters.r}}']))],
        fixed: [workflow((s) => (work(s).container.args = ['{{outputs.parameters.r}} {{outputs.result}}']))],
      },
    ],
  },
  {
    rule: argumentsSuppliedRule,
    cases: [
      pair(
        'a required input parameter not passed',
        'does not pass parameter q',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'q' }] }),
        (s) => (work(s).inputs = { parameters: [{ name: 'q', default: '1' }] }),
      ),
      pair(
        'a required artifact not passed',
        'does not pass artifact src',
        wt,
        (s) => (work(s).inputs = { artifacts: [{ name: 'src', path: '/src' }] }),
        (s) => (work(s).inputs = { artifacts: [{ name: 'src', path: '/src', optional: true }] }),
      ),
      {
        name: 'a Workflow leaving a WorkflowTemplate parameter without a value',
        message: 'must give p a value',
        broken: [
          manifest('Workflow', 'run', { workflowTemplateRef: { name: 'play' }, arguments: { parameters: [{ name: 'p' }] } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
        fixed: [
          manifest('Workflow', 'run', { workflowTemplateRef: { name: 'play' }, arguments: { parameters: [{ name: 'p', value: '1' }] } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
      },
      pair(
        'the whole message and where it points',
        '"a" does not pass parameter q, which template "work" requires (no value or default): Argo fails the step with "was not supplied"',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'q' }] }),
        (s) => (
          (work(s).inputs = {
            parameters: [
              { name: 'q' },
              { name: 'v', value: '1' },
              { name: 'f', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } },
              { name: 'd', default: '' },
            ],
            artifacts: [
              { name: 'src', path: '/src' },
              { name: 'repo', path: '/repo', git: { repo: 'https://github.com/o/r' } },
            ],
          }),
          s.templates[0].dag.tasks.forEach((task: any) => {
            task.arguments = { parameters: [{ name: 'q', value: '1' }], artifacts: [{ name: 'src', raw: { data: 'x' } }] };
          })
        ),
        'spec.templates[0].dag.tasks[0].arguments',
      ),
      {
        name: 'a template of a WorkflowTemplate in the run called through templateRef',
        message: '"b" does not pass parameter q, which template "lib/t" requires',
        path: 'spec.templates[0].dag.tasks[1].arguments',
        broken: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 't' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 'u' }, { name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
        fixed: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 'u' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'other', { templates: [{ name: 'u', inputs: { parameters: [{ name: 'q' }] } }] }),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }, { name: 'u' }] }),
          manifest('ClusterWorkflowTemplate', 'lib', { templates: [{ name: 'u', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
      },
      {
        name: 'templateRef with clusterScope calls the ClusterWorkflowTemplate',
        message: 'which template "lib/t" requires',
        broken: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 't', clusterScope: true }) && delete taskB(s).template),
          manifest('ClusterWorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
        fixed: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 't', clusterScope: true }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
          manifest('ClusterWorkflowTemplate', 'lib', { templates: [{ name: 't' }] }),
        ],
      },
      {
        name: 'a templateRef whose name is a placeholder is not resolved',
        message: 'which template "lib/t" requires',
        broken: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 't' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
        fixed: [
          wt((s) => (taskB(s).templateRef = { name: '{{workflow.parameters.lib}}', template: 't' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', '{{workflow.parameters.lib}}', {
            templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }],
          }),
        ],
      },
      {
        name: 'the whole message for one missing parameter, and where it points',
        message: 'Workflow run must give p a value: WorkflowTemplate "play" declares it without one',
        path: 'spec.arguments.parameters',
        broken: [
          manifest('Workflow', 'run', { workflowTemplateRef: { name: 'play' }, arguments: { parameters: [{ name: 'x', value: '1' }] } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
        fixed: [
          manifest('Workflow', 'run', {
            workflowTemplateRef: { name: 'play' },
            arguments: { parameters: [{ name: 'p', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }] },
          }),
          manifest('WorkflowTemplate', 'other', { arguments: { parameters: [{ name: 'q' }] } }),
          manifest('WorkflowTemplate', 'play', {
            arguments: {
              parameters: [
                { name: 'p' },
                { name: 'v', value: '1' },
                { name: 'f', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } },
              ],
            },
          }),
        ],
      },
      {
        name: 'a Workflow without spec.arguments: the finding points at spec.arguments, the field to add',
        message: 'Workflow run must give p a value',
        path: 'spec.arguments',
        broken: [
          manifest('Workflow', 'run', { workflowTemplateRef: { name: 'play' } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
        fixed: [
          manifest('Workflow', 'run', { workflowTemplateRef: { name: 'play' }, arguments: { parameters: [{ name: 'p', value: '1' }] } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
      },
      {
        name: 'a CronWorkflow without arguments in its workflowSpec: where it points',
        message: 'CronWorkflow run must give p a value',
        path: 'spec.workflowSpec.arguments',
        broken: [
          manifest('CronWorkflow', 'run', { workflowSpec: { workflowTemplateRef: { name: 'play' } } }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
        fixed: [
          manifest('CronWorkflow', 'run', {
            workflowSpec: { workflowTemplateRef: { name: 'play' }, arguments: { parameters: [{ name: 'p', value: '1' }] } },
          }),
          workflowTemplate((s) => (s.arguments = { parameters: [{ name: 'p' }] })),
        ],
      },
      {
        name: 'several missing parameters; arguments without parameters: where it points',
        message: 'must give p, q a value: ClusterWorkflowTemplate "play" declares them without one',
        path: 'spec.workflowSpec.arguments.parameters',
        broken: [
          manifest('CronWorkflow', 'run', { workflowSpec: { workflowTemplateRef: { name: 'play', clusterScope: true }, arguments: {} } }),
          manifest('ClusterWorkflowTemplate', 'play', { arguments: { parameters: [{ name: 'p' }, { name: 'q' }] } }),
        ],
        fixed: [
          manifest('CronWorkflow', 'run', { workflowSpec: { workflowTemplateRef: { name: 'play', clusterScope: true } } }),
          manifest('WorkflowTemplate', 'play', { arguments: { parameters: [{ name: 'p' }, { name: 'q' }] } }),
        ],
      },
      {
        name: 'a task whose name is not a string is named ""; entries that are not tasks or objects that are not workflows are skipped',
        message: '"" does not pass parameter q, which template "work" requires',
        path: 'spec.templates[0].dag.tasks[1].arguments',
        broken: [wt((s) => ((work(s).inputs = { parameters: [{ name: 'q' }] }), (taskB(s).name = 5)))],
        fixed: [
          wt(
            (s) => (
              (work(s).inputs = { parameters: [{ name: 'q' }, 'not a parameter'] }), s.templates[0].dag.tasks.splice(0, 2, 'not a task')
            ),
          ),
          {
            ...manifest('WorkflowTemplate', 'broken', {}),
            object: { apiVersion: 'argoproj.io/v1alpha1', kind: 'WorkflowTemplate', metadata: { name: 'broken' }, spec: 'x' },
          },
        ],
      },
      {
        name: 'a step whose name is not a string is named ""; entries that are not steps are skipped',
        message: '"" does not pass parameter q, which template "work" requires',
        path: 'spec.templates[0].steps[0][1].arguments',
        broken: [
          wt(
            (s) => (
              (work(s).inputs = { parameters: [{ name: 'q' }] }),
              (s.templates[0] = { name: 'main', steps: [['not a step', { name: 5, template: 'work' }]] })
            ),
          ),
        ],
        fixed: [
          wt(
            (s) => (
              (work(s).inputs = { parameters: [{ name: 'q' }] }),
              (s.templates[0] = {
                name: 'main',
                steps: [['not a step', { name: 5, template: 'work', arguments: { parameters: [{ name: 'q', value: '1' }] } }]],
              })
            ),
          ),
        ],
      },
      pair(
        'a call missing a parameter and an artifact names both',
        '"a" does not pass parameter q, artifact src, which template "work" requires',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'q' }], artifacts: [{ name: 'src', path: '/src' }] }),
        (s) => (work(s).inputs = { parameters: [{ name: 'q', default: '1' }], artifacts: [{ name: 'src', path: '/src', optional: true }] }),
      ),
      {
        name: "a templateRef to a template its WorkflowTemplate lacks is template-reference's finding",
        message: 'which template "lib/t" requires',
        broken: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 't' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
        fixed: [
          wt((s) => (taskB(s).templateRef = { name: 'lib', template: 'v' }) && delete taskB(s).template),
          manifest('WorkflowTemplate', 'lib', { templates: [{ name: 't', inputs: { parameters: [{ name: 'q' }] } }] }),
        ],
      },
    ],
  },
  {
    rule: argumentValueRule,
    cases: [
      pair(
        'a passed argument without a value',
        'parameter p needs a value or valueFrom',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p' }] }),
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }] }),
      ),
      pair(
        "an argument's valueFrom taking an output source",
        'path is for outputs',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', valueFrom: { path: '/x' } }] }),
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', valueFrom: { supplied: {} } }] }),
      ),
      pair(
        'an empty enum',
        'enum must list at least one value',
        wt,
        (s) => (s.arguments = { parameters: [{ name: 'p', value: 'a', enum: [] }] }),
        (s) => (s.arguments = { parameters: [{ name: 'p', value: 'a', enum: ['a'] }] }),
      ),
      pair(
        'a value outside its enum',
        'is not one of its enum',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'p', value: 'c', enum: ['a', 'b'] }] }),
        (s) => (work(s).inputs = { parameters: [{ name: 'p', value: '{{workflow.name}}', enum: ['a', 'b'] }] }),
      ),
      pair(
        "a Workflow's own parameter without a value",
        'parameter p needs a value',
        workflow,
        (s) => (s.arguments = { parameters: [{ name: 'p' }] }),
        (s) => (s.arguments = { parameters: [{ name: 'p', value: '' }] }),
      ),
      pair(
        'a passed argument whose value is null',
        'parameter p needs a value or valueFrom',
        wt,
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: null }] }),
        (s) => (taskB(s).arguments = { parameters: [{ name: 'p', value: '' }] }),
        'spec.templates[0].dag.tasks[1].arguments.parameters[0]',
      ),
      pair(
        "an argument's valueFrom: the whole message and where it points",
        "an argument's valueFrom takes only configMapKeyRef, event, supplied, default; path is for outputs",
        wt,
        (s) => (s.arguments = { parameters: [{ name: 'p', valueFrom: { path: '/x' } }] }),
        (s) => (s.arguments = { parameters: [{ name: 'p', valueFrom: { default: 'x', event: 'body.x' } }] }),
        'spec.arguments.parameters[0].valueFrom.path',
      ),
      pair(
        'an enum that is not a list',
        'parameter p: enum must list at least one value',
        wt,
        (s) => (s.arguments = { parameters: [{ name: 'p', value: 'a', enum: 'a' }] }),
        (s) => (s.arguments = { parameters: [{ name: 'p', value: 'a', enum: ['a'] }] }),
        'spec.arguments.parameters[0].enum',
      ),
      pair(
        'a value outside its enum: the whole message and where it points',
        'parameter p: value "c" is not one of its enum (a, b)',
        wt,
        (s) => (work(s).inputs = { parameters: [{ name: 'p', value: 'c', enum: ['a', 'b'] }] }),
        (s) => (work(s).inputs = { parameters: [{ name: 'p', value: 'b', enum: ['a', 'b'] }] }),
        'spec.templates[1].inputs.parameters[0].value',
      ),
      {
        name: "a CronWorkflow's own parameter without a value",
        message: 'parameter p needs a value',
        path: 'spec.workflowSpec.arguments.parameters[0]',
        broken: [manifest('CronWorkflow', 'nightly', { workflowSpec: { arguments: { parameters: [{ name: 'p' }] } } })],
        fixed: [manifest('CronWorkflow', 'nightly', { workflowSpec: { arguments: { parameters: [{ name: 'p', value: '1' }] } } })],
      },
      {
        name: 'a Workflow that references a WorkflowTemplate may leave its own parameter open (the template gives it)',
        message: 'parameter p needs a value',
        broken: [workflow((s) => (s.arguments = { parameters: [{ name: 'p' }] }))],
        fixed: [workflow((s) => ((s.workflowTemplateRef = { name: 'play' }), (s.arguments = { parameters: [{ name: 'p' }] })))],
      },
      {
        name: "a WorkflowTemplate's parameters and a template's inputs may be open",
        message: 'parameter p needs a value',
        broken: [workflow((s) => (s.arguments = { parameters: [{ name: 'p' }] }))],
        fixed: [
          wt(
            (s) => (
              (s.arguments = { parameters: [{ name: 'p' }] }),
              (work(s).inputs = { parameters: [{ name: 'q' }] }),
              s.templates[0].dag.tasks.forEach((task: any) => {
                task.arguments = { parameters: [{ name: 'q', value: '1' }] };
              })
            ),
          ),
        ],
      },
    ],
  },
  {
    rule: resourceTemplateRule,
    cases: [
      pair(
        'an unknown action',
        'action must be one of',
        wt,
        (s) => work(s) && (s.templates[1] = { name: 'work', resource: { action: 'fetch', manifest: 'a: 1' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: '{{inputs.parameters.a}}', manifest: 'a: 1' } }),
      ),
      pair(
        'create without a manifest',
        'needs a manifest or manifestFrom',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'create' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'get' } }),
      ),
      pair(
        'a manifest that is not YAML',
        'the manifest is not YAML',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'apply', manifest: 'a: [1' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'apply', manifest: 'a: {{inputs.parameters.x}}' } }),
      ),
      pair(
        'manifestFrom naming a missing input artifact',
        'which is not an input artifact',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'delete', manifestFrom: { artifact: { name: 'm' } } } }),
        (s) =>
          (s.templates[1] = {
            name: 'work',
            inputs: { artifacts: [{ name: 'm' }] },
            resource: { action: 'delete', manifestFrom: { artifact: { name: 'm' } } },
          }),
      ),
      pair(
        'apply over a play Workflow (the remediator replaces it under the same name)',
        'resource template "work" would apply over a play',
        wt,
        (s) =>
          (s.templates[1] = {
            name: 'work',
            resource: {
              action: 'apply',
              manifest: 'kind: Workflow\nmetadata:\n  name: play-x-task-{{inputs.parameters.t}}\n  labels: { workflow-type: play }',
            },
          }),
        (s) =>
          (s.templates[1] = {
            name: 'work',
            resource: { action: 'apply', manifest: 'kind: Workflow\nmetadata:\n  name: chunk-1\n  labels: { workflow-type: project }' },
          }),
      ),
      pair(
        'an action that is not a string, pinned with the actions and the path',
        'resource template "work": action must be one of get, create, apply, delete, replace, patch',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 5, manifest: 'a: 1' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'patch', manifest: 'a: 1' } }),
        'spec.templates[1].resource.action',
      ),
      pair(
        'replace without a manifest; delete needs none',
        'resource template "work" (replace) needs a manifest or manifestFrom',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'replace' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'delete' } }),
        'spec.templates[1].resource',
      ),
      pair(
        'create with manifestFrom needs no manifest',
        'resource template "work" (create) needs a manifest or manifestFrom',
        wt,
        (s) => (s.templates[1] = { name: 'work', inputs: { artifacts: [{ name: 'm' }] }, resource: { action: 'create' } }),
        (s) =>
          (s.templates[1] = {
            name: 'work',
            inputs: { artifacts: [{ name: 'm' }] },
            resource: { action: 'create', manifestFrom: { artifact: { name: 'm' } } },
          }),
      ),
      pair(
        'a manifest that is not YAML, pinned with the path',
        'the manifest is not YAML: ',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'create', manifest: 'a: [1' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'create', manifest: 'a: [1]' } }),
        'spec.templates[1].resource.manifest',
      ),
      pair(
        'manifestFrom naming an artifact the template does not take, beside one it takes',
        'manifestFrom names artifact "m", which is not an input artifact of "work"',
        wt,
        (s) =>
          (s.templates[1] = {
            name: 'work',
            inputs: { artifacts: [{ name: 'other' }] },
            resource: { action: 'apply', manifestFrom: { artifact: { name: 'm' } } },
          }),
        (s) =>
          (s.templates[1] = {
            name: 'work',
            inputs: { artifacts: [{ name: 'other' }, { name: 'm' }] },
            resource: { action: 'apply', manifestFrom: { artifact: { name: 'm' } } },
          }),
        'spec.templates[1].resource.manifestFrom.artifact.name',
      ),
      pair(
        'a manifestFrom without an artifact is left to the schema',
        'needs a manifest or manifestFrom',
        wt,
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'apply' } }),
        (s) => (s.templates[1] = { name: 'work', resource: { action: 'apply', manifestFrom: {} } }),
      ),
    ],
  },
  {
    rule: templateTimeoutRule,
    cases: [
      pair(
        'a timeout on a DAG',
        'timeout only applies to leaf templates',
        wt,
        (s) => (s.templates[0].timeout = '1m'),
        (s) => (work(s).timeout = '1m'),
      ),
      pair(
        'a bare-number timeout',
        'is not a duration',
        wt,
        (s) => (work(s).timeout = '60'),
        (s) => (work(s).timeout = '1h30m'),
      ),
      pair(
        'a timeout Go overflows',
        'is not a duration',
        wt,
        (s) => (work(s).timeout = '2562048h'),
        (s) => (work(s).timeout = '2562047h'),
      ),
      pair(
        'a timeout on a steps template, pinned with its path',
        'template "main": timeout only applies to leaf templates; set it on the templates the steps or tasks call',
        wt,
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 'a', template: 'work' }]], timeout: '1m' }),
        (s) => ((s.templates[0] = { name: 'main', steps: [[{ name: 'a', template: 'work' }]] }), (work(s).timeout = '')),
        'spec.templates[0].timeout',
      ),
      pair(
        'a number as timeout, even zero',
        'template "work": timeout 0 is not a duration such as "30s" or "2h" (a bare number is refused)',
        wt,
        (s) => (work(s).timeout = 0),
        (s) => (work(s).timeout = '0s'),
        'spec.templates[1].timeout',
      ),
    ],
  },
  {
    rule: templateParallelismRule,
    cases: [
      pair(
        'parallelism on a container template',
        'parallelism is only valid',
        wt,
        (s) => (work(s).parallelism = 2),
        (s) => (s.templates[0].parallelism = 2),
      ),
      pair(
        'parallelism on a container template, pinned with its path',
        'template "work": parallelism is only valid for steps and dag templates',
        wt,
        (s) => (work(s).parallelism = 2),
        () => {},
        'spec.templates[1].parallelism',
      ),
    ],
  },
  {
    rule: suspendDurationRule,
    cases: [
      pair(
        'a suspend duration Argo cannot parse',
        'is neither seconds nor a Go duration',
        wt,
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: '1d' } }),
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: '90' } }),
      ),
      pair(
        'a numeric suspend duration is seconds',
        'is neither seconds',
        wt,
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: -5 } }),
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: 30 } }),
      ),
      pair(
        'a suspend duration that is a list',
        'template "work": suspend duration ["90"] is neither seconds nor a Go duration such as "10m"',
        wt,
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: ['90'] } }),
        (s) => (s.templates[1] = { name: 'work', suspend: { duration: '90' } }),
        'spec.templates[1].suspend.duration',
      ),
    ],
  },
  {
    rule: retryStrategyRule,
    cases: [
      pair(
        'a negative retry limit',
        'must be a whole number of at least 0',
        wt,
        (s) => (work(s).retryStrategy = { limit: -1 }),
        (s) => (work(s).retryStrategy = { limit: 0 }),
        'spec.templates[1].retryStrategy.limit',
      ),
      pair(
        'a fractional retry limit',
        'must be a whole number',
        wt,
        (s) => (work(s).retryStrategy = { limit: '1.5' }),
        (s) => (work(s).retryStrategy = { limit: '3' }),
      ),
      pair(
        'an unknown retry policy',
        'retryPolicy must be one of',
        wt,
        (s) => (work(s).retryStrategy = { retryPolicy: 'Sometimes' }),
        (s) => (work(s).retryStrategy = { retryPolicy: 'OnTransientError', limit: '{{inputs.parameters.n}}' }),
      ),
      pair(
        'an unknown retry policy, pinned with the policies and the path',
        'template "work": retryPolicy must be one of Always, OnFailure, OnError, OnTransientError',
        wt,
        (s) => (work(s).retryStrategy = { retryPolicy: 'Never' }),
        (s) => (work(s).retryStrategy = { retryPolicy: '' }),
        'spec.templates[1].retryStrategy.retryPolicy',
      ),
      pair(
        'a backoff duration Argo cannot parse',
        'backoff duration',
        wt,
        (s) => (work(s).retryStrategy = { backoff: { duration: '5 s' } }),
        (s) => (work(s).retryStrategy = { backoff: { duration: '5', maxDuration: '1m' } }),
      ),
      pair(
        'a backoff maxDuration Argo cannot parse',
        'backoff maxDuration',
        wt,
        (s) => (work(s).retryStrategy = { backoff: { duration: '10s', maxDuration: '1 week' } }),
        (s) => (work(s).retryStrategy = { backoff: { duration: '10s', maxDuration: '{{x}}' } }),
      ),
      pair(
        'a backoff without a base duration',
        'backoff needs a duration',
        wt,
        (s) => (work(s).retryStrategy = { limit: 2, backoff: { maxDuration: '1h' } }),
        (s) => (work(s).retryStrategy = { limit: 2, backoff: { duration: '{{inputs.parameters.wait}}', maxDuration: '1h' } }),
        'spec.templates[1].retryStrategy.backoff',
      ),
      pair(
        'a backoff with an empty base duration',
        'backoff needs a duration',
        wt,
        (s) => (work(s).retryStrategy = { backoff: { duration: '', factor: 2 } }),
        (s) => (work(s).retryStrategy = { backoff: { duration: '1m', factor: 2 } }),
      ),
    ],
  },
  {
    rule: outputValueFromRule,
    cases: [
      pair(
        'value and valueFrom together',
        'has both value and valueFrom',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o', value: '1', valueFrom: { path: '/o' } }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', value: '1' }] }),
      ),
      pair(
        'neither value nor valueFrom',
        'needs a value or a valueFrom',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o' }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o', default: 'x' } }] }),
      ),
      pair(
        'two valueFrom sources',
        'needs exactly one source (has path, supplied)',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o', supplied: {} } }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { supplied: {} } }] }),
      ),
      pair(
        'a valueFrom with only a default',
        'output o: valueFrom needs exactly one source (has none)',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { default: 'x' } }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o', default: 'x' } }] }),
        'spec.templates[1].outputs.parameters[0].valueFrom',
      ),
      pair(
        'a container output taken from jsonPath, the whole message',
        'output o: a container template takes outputs from path or supplied, not jsonPath',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { jsonPath: '{.x}' } }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o' } }] }),
        'spec.templates[1].outputs.parameters[0].valueFrom.jsonPath',
      ),
      pair(
        'a container output taken from jsonPath',
        'a container template takes outputs from path or supplied',
        wt,
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { jsonPath: '{.x}' } }] }),
        (s) => (work(s).outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o' } }] }),
      ),
      pair(
        'a DAG output taken from a path',
        'a dag template takes outputs from parameter or expression',
        wt,
        (s) => (s.templates[0].outputs = { parameters: [{ name: 'o', valueFrom: { path: '/o' } }] }),
        (s) => (s.templates[0].outputs = { parameters: [{ name: 'o', valueFrom: { parameter: '{{tasks.a.outputs.result}}' } }] }),
      ),
    ],
  },
  {
    rule: loopSourceRule,
    cases: [
      pair(
        'a task with two loop sources',
        'sets withItems and withParam',
        wt,
        (s) => ((taskB(s).withItems = [1]), (taskB(s).withParam = '[1]')),
        (s) => (taskB(s).withSequence = { count: '2' }),
      ),
      pair(
        'a task looping over a parameter and a sequence',
        '"b" sets withParam and withSequence: a step or task loops over one source',
        wt,
        (s) => ((taskB(s).withParam = '[1]'), (taskB(s).withSequence = { count: '2' })),
        (s) => (taskB(s).withParam = '[1]'),
        'spec.templates[0].dag.tasks[1]',
      ),
    ],
  },
  {
    rule: cronScheduleRule,
    cases: [
      {
        name: 'no schedule',
        message: 'needs at least one schedule',
        broken: [manifest('CronWorkflow', 'nightly', { workflowSpec: {} })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedule: '0 1 * * *', workflowSpec: {} })],
      },
      {
        name: 'a schedule of four fields',
        message: 'is not five cron fields',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['0 1 * *'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['0 1 * * *', '@daily', '@every 1h'] })],
      },
      {
        name: 'no schedule, pinned with its path',
        message: 'a CronWorkflow needs at least one schedule',
        path: 'spec.schedules',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: [], workflowSpec: {} })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@midnight'], workflowSpec: {} })],
      },
      {
        name: 'a schedule that is not a string',
        message: 'schedule 5 is not five cron fields (minute hour day month weekday)',
        path: 'spec.schedules[0]',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: [5] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['5 * * * *'] })],
      },
      {
        name: 'five fields split on any whitespace, around them too (robfig strings.Fields)',
        message: 'schedule "0 1 * * * *" is not five cron fields',
        path: 'spec.schedules[1]',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@weekly', '0 1 * * * *'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: [' 0 1 * * * ', '0  1\t* * *'] })],
      },
      {
        name: 'a descriptor with text before it',
        message: 'schedule "x@daily" is not five cron fields',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['x@daily'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@daily'] })],
      },
      {
        name: 'a descriptor with text after it',
        message: 'schedule "@dailyx" is not five cron fields',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@dailyx'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@yearly', '@annually', '@monthly'] })],
      },
      {
        name: 'a descriptor is matched untrimmed (robfig parseDescriptor)',
        message: 'schedule " @daily" is not five cron fields',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: [' @daily'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@daily'] })],
      },
      {
        name: '@every takes one space before its duration (robfig parseDescriptor)',
        message: 'schedule "@every  1h" is not five cron fields',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@every  1h'] })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@every 1h'] })],
      },
      {
        name: 'an unknown concurrency policy, pinned with the policies and the path',
        message: 'concurrencyPolicy must be one of Allow, Forbid, Replace',
        path: 'spec.concurrencyPolicy',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@hourly'], concurrencyPolicy: 'Queue' })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@hourly'], concurrencyPolicy: '' })],
      },
      {
        name: 'an unknown concurrency policy',
        message: 'concurrencyPolicy must be one of',
        broken: [manifest('CronWorkflow', 'nightly', { schedules: ['@hourly'], concurrencyPolicy: 'Queue' })],
        fixed: [manifest('CronWorkflow', 'nightly', { schedules: ['@hourly'], concurrencyPolicy: 'Forbid' })],
      },
    ],
  },
];
