/**
 * Cases for the rules on what the Argo controllers do at run time to a workflow that passes `argo lint`
 * (issue 22): a labelsFrom key read as a variable, a long wait in the pod that created its object, a resume
 * by node selector whose "already resumed" fails the workflow, an agent's pod with the play's token, an Argo
 * CLI of another major than the controller.
 */
// @ts-nocheck

import { agentServiceAccountTokenRule } from '../../../src/validate/rules/agent-service-account-token';
import { argoCliVersionRule, TARGET_ARGO_MAJOR } from '../../../src/validate/rules/argo-cli-version';
import { argoResumeContinueOnRule } from '../../../src/validate/rules/argo-resume-continue-on';
import { labelsFromVariableRule } from '../../../src/validate/rules/labels-from-variable';
import { LONG_WAIT_SECONDS, resourceCreateWaitRule } from '../../../src/validate/rules/resource-create-wait';
import { manifest, pair, workflowTemplate, type RuleCase, type RuleTable } from '../cases';
import { coreObject } from './runtime';

const wt = workflowTemplate;
/** A change to a template and the spec that holds it. */
type TemplateChange = (template: any, spec: any) => unknown;

/** `pair` for builders that change a template (`change(template, spec)`). */
const templatePair = (
  name: string,
  message: string,
  build: (change: TemplateChange) => ReturnType<typeof wt>,
  breakIt: TemplateChange,
  fixIt: TemplateChange,
  path?: string,
): RuleCase => ({ name, message, broken: [build(breakIt)], fixed: [build(fixIt)], path });
const work = (spec: any) => spec.templates[1];
const tasks = (spec: any): any[] => spec.templates[0].dag.tasks;

// labels-from-variable ----------------------------------------------------------------------------------------

/** `work` reads `reference` in its args; `stage` is set by labelsFrom, `team` by workflowMetadata.labels. */
const readsLabel = (reference: string, change: (spec: any) => void = () => {}) =>
  wt((s) => {
    s.workflowMetadata = { labels: { team: 'a' }, labelsFrom: { stage: { expression: "workflow.parameters['start']" } } };
    work(s).container.args = [reference];
    change(s);
  });
const LABELS_FROM = 'reads label stage, which spec.workflowMetadata.labelsFrom sets';

// resource-create-wait ----------------------------------------------------------------------------------------

const JOB = 'apiVersion: batch/v1\nkind: Job\nmetadata: { name: long-job }\n';
/** `work` as a resource template: `action` on a Job, waiting for it to succeed, with a one-day deadline. */
const waits = (action: string, change: TemplateChange = () => {}) =>
  wt((s) => {
    Object.assign(work(s), {
      activeDeadlineSeconds: 86400,
      resource: { action, manifest: JOB, successCondition: 'status.succeeded > 0' },
    });
    delete work(s).container;
    change(work(s), s);
  });
const CREATE_WAIT = 'creates its object and waits up to 86400s for its condition in the same pod';
const APPLY_WAIT = 'applies its object and waits up to 86400s for its condition in the same pod, with no retryStrategy';

// argo-resume-continue-on -------------------------------------------------------------------------------------

const RESUME = ['argo', 'resume', 'play-5', '--node-field-selector', 'inputs.parameters.stage.value=waiting-pr-created'];
/** `work` runs `argo resume` with a node field selector; both DAG tasks call it. */
const resuming = (change: (spec: any) => void = () => {}) =>
  wt((s) => {
    work(s).container = { image: `quay.io/argoproj/argocli:v${TARGET_ARGO_MAJOR}.1.2`, command: [RESUME[0]], args: RESUME.slice(1) };
    change(s);
  });
/** `work` as a script whose source is `source`. */
const resumeScript = (source: string) => (s: any) => {
  work(s).script = { image: 'quay.io/argoproj/argocli:v4.1.2', command: ['sh'], source };
  delete work(s).container;
};
const accepted = (s: any) => {
  for (const task of tasks(s)) task.continueOn = { failed: true };
};
const IN_DAG = 'which runs `argo resume --node-field-selector`';

// agent-service-account-token ---------------------------------------------------------------------------------

/** `work` runs an agent (labelled with its GitHub App) under the account `agent-play`. */
const agent = (change: TemplateChange = () => {}) =>
  wt((s) => {
    s.serviceAccountName = 'agent-play';
    work(s).metadata = { labels: { 'github-app': '5DLabs-Rex' } };
    change(work(s), s);
  });
const tokenOff = (template: any) =>
  Object.assign(template, { automountServiceAccountToken: false, executor: { serviceAccountName: 'agent-play' } });
const workflowTokenOff = (spec: any) =>
  Object.assign(spec, { automountServiceAccountToken: false, executor: { serviceAccountName: 'agent-play' } });
const TOKEN = "runs an agent (label github-app) and its container gets the pod's service-account token";
const NO_EXECUTOR = 'turns the service-account token off without an executor.serviceAccountName';

// argo-cli-version --------------------------------------------------------------------------------------------

const OLD_CLI = 'quay.io/argoproj/argocli:v3.7.9';
const CLI = `quay.io/argoproj/argocli:v${TARGET_ARGO_MAJOR}.1.2`;
const withImage = (image: string) => (s: any) => (work(s).container.image = image);
const jobWith = (image: string) => (s: any) => {
  Object.assign(work(s), {
    resource: {
      action: 'create',
      manifest: `${JOB}spec:\n  template:\n    spec:\n      containers:\n        - { name: main, image: "${image}" }\n`,
    },
  });
  delete work(s).container;
};
const deployment = (image: string) => coreObject('Deployment', { spec: { template: { spec: { containers: [{ name: 'cli', image }] } } } });
const OTHER_MAJOR = `but the platform targets Argo Workflows v${TARGET_ARGO_MAJOR}`;

export const CONTROLLER_TABLES: RuleTable[] = [
  {
    rule: labelsFromVariableRule,
    cases: [
      {
        name: 'a labelsFrom key as a simple variable',
        message: `{{workflow.labels.stage}} ${LABELS_FROM}: Argo makes a labelsFrom key a workflow variable only in the reconciliation that starts the workflow`,
        path: 'spec.templates[1].container.args[0]',
        broken: [readsLabel('{{workflow.labels.stage}}')],
        fixed: [readsLabel('{{workflow.labels.team}}')],
      },
      {
        name: 'with spaces inside the braces',
        message: LABELS_FROM,
        broken: [readsLabel('{{ workflow.labels.stage }}')],
        fixed: [readsLabel('{{ workflow.parameters.start }}')],
      },
      {
        name: 'a labelsFrom key indexed in an expression',
        message: `{{=workflow.labels['stage']}} ${LABELS_FROM}`,
        broken: [readsLabel("{{=workflow.labels['stage']}}")],
        fixed: [readsLabel("{{=workflow.labels['team']}}")],
      },
      {
        name: 'a labelsFrom key with a dot in an expression',
        message: LABELS_FROM,
        broken: [readsLabel("{{=workflow.labels.stage + '-x'}}")],
        fixed: [readsLabel("{{=workflow.labels.team + '-x'}}")],
      },
      {
        name: 'a key in both labels and labelsFrom: labelsFrom wins, and the variable is skipped',
        message: LABELS_FROM,
        broken: [readsLabel('{{workflow.labels.stage}}', (s) => (s.workflowMetadata.labels.stage = 'implementation'))],
        fixed: [
          readsLabel(
            '{{workflow.labels.stage}}',
            (s) => ((s.workflowMetadata.labels.stage = 'implementation'), delete s.workflowMetadata.labelsFrom.stage),
          ),
        ],
      },
      {
        name: 'the JSON of all labels holds the key and is not reported',
        message: LABELS_FROM,
        broken: [readsLabel('{{workflow.labels.stage}}')],
        fixed: [readsLabel('{{workflow.labels.json}}')],
      },
      {
        name: 'in an exit handler, as the play had it',
        message: LABELS_FROM,
        path: 'spec.templates[2].container.env[0].value',
        broken: [
          readsLabel('', (s) => {
            s.onExit = 'exit';
            s.templates.push({ name: 'exit', container: { image: 'a', env: [{ name: 'STAGE', value: '{{workflow.labels.stage}}' }] } });
          }),
        ],
        fixed: [readsLabel('', (s) => ((s.onExit = 'exit'), s.templates.push({ name: 'exit', container: { image: 'a' } })))],
      },
    ],
  },
  {
    rule: resourceCreateWaitRule,
    cases: [
      templatePair(
        'a create that waits for its successCondition',
        `resource template "work" ${CREATE_WAIT}: that one argoexec pod watches the object for its whole life`,
        (change) => waits('create', change),
        () => {},
        (template) => (template.resource.action = 'get'),
        'spec.templates[1].resource.action',
      ),
      templatePair(
        'a create that waits for its failureCondition only',
        CREATE_WAIT,
        (change) => waits('create', change),
        (template) => (delete template.resource.successCondition, (template.resource.failureCondition = 'status.failed > 0')),
        (template) => delete template.resource.successCondition,
      ),
      templatePair(
        'a retried create still creates again',
        CREATE_WAIT,
        (change) => waits('create', change),
        (template) => (template.retryStrategy = { limit: 3 }),
        (template) => ((template.retryStrategy = { limit: 3 }), (template.activeDeadlineSeconds = LONG_WAIT_SECONDS)),
      ),
      templatePair(
        "the workflow's deadline bounds a template without one",
        'creates its object and waits up to 604800s',
        (change) => waits('create', change),
        (template, spec) => (delete template.activeDeadlineSeconds, (spec.activeDeadlineSeconds = 604800)),
        (template, spec) => ((template.activeDeadlineSeconds = 600), (spec.activeDeadlineSeconds = 604800)),
      ),
      templatePair(
        'a deadline written as a string',
        'waits up to 7200s',
        (change) => waits('create', change),
        (template) => (template.activeDeadlineSeconds = '7200'),
        (template) => (template.activeDeadlineSeconds = String(LONG_WAIT_SECONDS)),
      ),
      templatePair(
        'a wait with no deadline says nothing of its length',
        CREATE_WAIT,
        (change) => waits('create', change),
        () => {},
        (template) => delete template.activeDeadlineSeconds,
      ),
      templatePair(
        'a blank condition is no condition',
        CREATE_WAIT,
        (change) => waits('create', change),
        () => {},
        (template) => (template.resource.successCondition = '  '),
      ),
      templatePair(
        'an apply without a retryStrategy',
        `resource template "work" ${APPLY_WAIT}`,
        (change) => waits('apply', change),
        () => {},
        (template) => (template.retryStrategy = { limit: 2 }),
        'spec.templates[1].resource.action',
      ),
      templatePair(
        "an apply retried by the workflow's retryStrategy",
        APPLY_WAIT,
        (change) => waits('apply', change),
        () => {},
        (_template, spec) => (spec.retryStrategy = { limit: 2 }),
      ),
    ],
  },
  {
    rule: argoResumeContinueOnRule,
    cases: [
      pair(
        'DAG tasks whose failure fails the DAG',
        `"a" runs template "work", ${IN_DAG}: when the node was resumed already`,
        resuming,
        () => {},
        accepted,
        'spec.templates[0].dag.tasks[0]',
      ),
      pair(
        'continueOn error is for a lost pod, not for a failed resume',
        'fails its DAG and the workflow',
        resuming,
        (s) => {
          for (const task of tasks(s)) task.continueOn = { error: true };
        },
        accepted,
      ),
      pair(
        'a task that depends on its failure accepts it',
        '"a" runs template "work"',
        resuming,
        (s) => (tasks(s)[1].continueOn = { failed: true }),
        (s) => ((tasks(s)[1].continueOn = { failed: true }), tasks(s).push({ name: 'confirm', template: 'work-ok', depends: 'a.Failed' })),
      ),
      pair(
        'a steps group fails with its step',
        'fails its steps group and the workflow',
        resuming,
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 'release', template: 'work' }]] }),
        (s) => (s.templates[0] = { name: 'main', steps: [[{ name: 'release', template: 'work', continueOn: { failed: true } }]] }),
        'spec.templates[0].steps[0][0]',
      ),
      pair(
        'a script that tolerates the failure itself',
        IN_DAG,
        resuming,
        resumeScript(`${RESUME.join(' ')}\necho resumed`),
        resumeScript(`${RESUME.join(' ')} || true\necho resumed`),
      ),
      pair(
        'a statement continued over two lines, tolerated at its end',
        IN_DAG,
        resuming,
        resumeScript('argo resume play-5 \\\n  --node-field-selector inputs.parameters.stage.value=x || echo failed'),
        resumeScript('argo resume play-5 \\\n  --node-field-selector inputs.parameters.stage.value=x || :'),
      ),
      pair(
        'a resume without a node selector succeeds on a workflow resumed already',
        IN_DAG,
        resuming,
        () => {},
        (s) => (work(s).container.args = ['resume', 'play-5']),
      ),
    ],
  },
  {
    rule: agentServiceAccountTokenRule,
    cases: [
      templatePair("an agent's container with the pod's token", `template "work" ${TOKEN}`, agent, () => {}, tokenOff, 'spec.templates[1]'),
      templatePair(
        'the token off without an executor account: Argo refuses the pod',
        `template "work" ${NO_EXECUTOR}`,
        agent,
        (template) => (template.automountServiceAccountToken = false),
        (template, spec) => ((template.automountServiceAccountToken = false), (spec.executor = { serviceAccountName: 'agent-play' })),
      ),
      templatePair(
        'an empty executor account is none',
        NO_EXECUTOR,
        agent,
        (template) => ((template.automountServiceAccountToken = false), (template.executor = { serviceAccountName: '' })),
        tokenOff,
      ),
      templatePair(
        'templateDefaults fill what the template leaves unset',
        TOKEN,
        agent,
        (_template, spec) =>
          (spec.templateDefaults = { automountServiceAccountToken: true, executor: { serviceAccountName: 'agent-play' } }),
        (_template, spec) =>
          (spec.templateDefaults = { automountServiceAccountToken: false, executor: { serviceAccountName: 'agent-play' } }),
      ),
      templatePair(
        "the template's setting wins over the workflow's",
        TOKEN,
        agent,
        (template, spec) => (workflowTokenOff(spec), (template.automountServiceAccountToken = true)),
        (_template, spec) => workflowTokenOff(spec),
      ),
      templatePair(
        'only a template labelled with a GitHub App runs an agent',
        TOKEN,
        agent,
        () => {},
        (template) => (template.metadata = { labels: { 'workflow-stage': 'implementation' } }),
      ),
      templatePair(
        'a resource template runs no container of its own',
        TOKEN,
        agent,
        () => {},
        (template) => ((template.resource = { action: 'get', manifest: JOB }), delete template.container),
      ),
      templatePair(
        'a script agent',
        TOKEN,
        agent,
        (template) => ((template.script = { image: 'a', source: 'claude -p x' }), delete template.container),
        (template) => ((template.script = { image: 'a', source: 'claude -p x' }), delete template.container, tokenOff(template)),
      ),
    ],
  },
  {
    rule: argoCliVersionRule,
    cases: [
      pair(
        'a v3 CLI in a v4 platform',
        `${OLD_CLI} is the Argo CLI of v3, ${OTHER_MAJOR}`,
        wt,
        withImage(OLD_CLI),
        withImage(CLI),
        'spec.templates[1].container.image',
      ),
      pair(
        'a newer major is no better',
        `is the Argo CLI of v${TARGET_ARGO_MAJOR + 1}`,
        wt,
        withImage(`quay.io/argoproj/argocli:v${TARGET_ARGO_MAJOR + 1}.0.0`),
        withImage(CLI),
      ),
      pair(
        'another registry, a tag without v, a digest',
        OTHER_MAJOR,
        wt,
        withImage('registry.example.com/mirror/argocli:3.7.9@sha256:0123'),
        withImage('registry.example.com/mirror/argocli@sha256:0123'),
      ),
      pair('a tag without a version is not checked', OTHER_MAJOR, wt, withImage(OLD_CLI), withImage('quay.io/argoproj/argocli:latest')),
      pair(
        'an image that only ends in argocli is not the CLI',
        OTHER_MAJOR,
        wt,
        withImage(OLD_CLI),
        withImage('example.com/myargocli:v3.7.9'),
      ),
      pair(
        "an image in a resource template's manifest",
        OTHER_MAJOR,
        wt,
        jobWith(OLD_CLI),
        jobWith(CLI),
        'spec.templates[1].resource.manifest',
      ),
      {
        name: 'any kind that names an image',
        message: OTHER_MAJOR,
        path: 'spec.template.spec.containers[0].image',
        broken: [deployment(OLD_CLI)],
        fixed: [deployment(CLI)],
      },
      {
        name: 'a Sensor that runs the CLI',
        message: OTHER_MAJOR,
        broken: [manifest('Sensor', 'gate', { template: { container: { image: OLD_CLI } } })],
        fixed: [manifest('Sensor', 'gate', { template: { container: { image: CLI } } })],
      },
    ],
  },
];
