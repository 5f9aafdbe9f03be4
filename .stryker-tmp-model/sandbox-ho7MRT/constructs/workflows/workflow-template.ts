// @ts-nocheck
import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { COMMON_LABELS } from '../model/labels';
import { dnsLabelProblem, isDnsLabel, isLabelKey, isLabelValue, serviceAccountNameProblem } from '../model/naming';
import { plainCopy } from '../model/plain-copy';
import { checkProp } from '../model/prop-checks';
import type { Template, WorkflowSpec } from './argo-types';
import { ARGO_API_VERSION } from '../model/argo-api';

/** The Workflows CRDs accept at most this many templates in one object. */
export const MAX_TEMPLATES = 200;

/** A WorkflowTemplate, defined here or elsewhere. */
export interface IWorkflowTemplate {
  /** The WorkflowTemplate's `metadata.name`. */
  readonly name: string;
}

/** What `new WorkflowTemplate(scope, id, props)` takes. */
export interface WorkflowTemplateProps {
  /** `metadata.name`: a DNS-1123 label of at most 63 characters. */
  readonly name: string;
  /** `metadata.namespace`. @default - the namespace of the chart */
  readonly namespace?: string;
  /** Labels of the WorkflowTemplate object itself (not of the Workflows made from it). @default - none */
  readonly labels?: Readonly<Record<string, string>>;
  /** The spec, without templates: add those with `addTemplate`. Its `serviceAccountName`, if any, must be legal. */
  readonly spec: Omit<WorkflowSpec, 'templates'>;
  /** Initial templates. @default - none */
  readonly templates?: readonly Template[];
}

/** The props a WorkflowTemplate copies into its object as they are. */
function checkWorkflowTemplateProps(owner: string, props: WorkflowTemplateProps): void {
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  for (const [key, value] of Object.entries(props.labels ?? {})) {
    checkProp(
      owner,
      'labels',
      key,
      isLabelKey(key) ? undefined : 'is not a label key: use an optional DNS prefix and "/", then letters, digits, "-", "_" and "."',
    );
    checkProp(
      owner,
      `labels.${key}`,
      value,
      isLabelValue(value) ? undefined : 'is not a label value: at most 63 letters, digits, "-", "_" and ".", alphanumeric at both ends',
    );
  }
  const account = props.spec.serviceAccountName;
  if (account !== undefined) checkProp(owner, 'spec.serviceAccountName', account, serviceAccountNameProblem(account));
}

/**
 * An Argo WorkflowTemplate (`argoproj.io/v1alpha1`), typed. It refuses what Argo would refuse at run time:
 * two templates with one name, more than 200 templates, an entrypoint or exit handler or DAG task that
 * names a template it does not have.
 */
export class WorkflowTemplate extends Construct implements IWorkflowTemplate {
  /**
   * Refers to a WorkflowTemplate that exists elsewhere (another chart, another tool).
   *
   * @throws when `name` is not a DNS-1123 label
   */
  public static fromWorkflowTemplateName(_scope: Construct, _id: string, name: string): IWorkflowTemplate {
    checkProp('WorkflowTemplate.fromWorkflowTemplateName', 'name', name, dnsLabelProblem(name));
    return { name };
  }

  /** The WorkflowTemplate's `metadata.name`. */
  public readonly name: string;
  /** The API object under the typed surface. */
  protected readonly apiObject: ApiObject;
  private readonly spec: Omit<WorkflowSpec, 'templates'>;
  private readonly templateList: Template[] = [];
  /** The names of `templateList`: a play checks each of its DAG tasks' references against them. */
  private readonly templateNameSet = new Set<string>();

  /**
   * @throws when the name or namespace is not a DNS-1123 label, a label is illegal, the spec's service account
   * name is illegal, or the initial templates break a rule of `addTemplate`
   */
  public constructor(scope: Construct, id: string, props: WorkflowTemplateProps) {
    super(scope, id);
    if (!isDnsLabel(props.name)) {
      throw new Error(
        `WorkflowTemplate name "${props.name}" is not a DNS-1123 label of at most 63 characters: use lower-case letters, digits and "-"`,
      );
    }
    checkWorkflowTemplateProps(`WorkflowTemplate ${props.name}`, props);
    this.name = props.name;
    this.spec = plainCopy(props.spec);
    for (const template of props.templates ?? []) this.addTemplate(template);
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: ARGO_API_VERSION,
      kind: 'WorkflowTemplate',
      metadata: { name: props.name, namespace: props.namespace, labels: { ...COMMON_LABELS, ...props.labels } },
      spec: Lazy.any({ produce: () => ({ ...this.spec, templates: this.templateList }) }),
    });
    this.node.addValidation({ validate: () => this.referenceProblems() });
  }

  /**
   * Adds a template.
   *
   * @throws when a template of that name exists, or the object would hold more than 200 templates
   */
  public addTemplate(template: Template): void {
    if (this.hasTemplate(template.name)) throw new Error(`WorkflowTemplate ${this.name} already has a template named "${template.name}"`);
    if (this.templateList.length >= MAX_TEMPLATES)
      throw new Error(
        `WorkflowTemplate ${this.name} cannot hold more than ${MAX_TEMPLATES} templates (the Argo CRD's limit): split it into WorkflowTemplates called through templateRef`,
      );
    this.templateList.push(plainCopy(template));
    this.templateNameSet.add(template.name);
  }

  /** Whether a template named `name` exists. */
  public hasTemplate(name: string): boolean {
    return this.templateNameSet.has(name);
  }

  /** The names of the templates, in order. */
  public get templateNames(): string[] {
    return this.templateList.map((template) => template.name);
  }

  /** A copy of the template named `name`, or undefined. */
  public template(name: string): Template | undefined {
    const found = this.templateList.find((template) => template.name === name);
    return found ? plainCopy(found) : undefined;
  }

  /** Every local template reference that does not resolve, as a message that names it. */
  private referenceProblems(): string[] {
    const problems: string[] = [];
    // The place is named only for a reference that fails: a thousand plays hold tens of thousands of tasks.
    const check = (name: string | undefined, where: () => string): void => {
      if (name !== undefined && !this.hasTemplate(name))
        problems.push(`WorkflowTemplate ${this.name}: ${where()} names template "${name}", which does not exist`);
    };
    check(this.spec.entrypoint, () => 'spec.entrypoint');
    check(this.spec.onExit, () => 'spec.onExit');
    for (const template of this.templateList) {
      for (const task of template.dag?.tasks ?? []) check(task.template, () => `templates.${template.name}.dag.tasks.${task.name}`);
      for (const parallel of template.steps ?? [])
        for (const step of parallel) check(step.template, () => `templates.${template.name}.steps.${step.name}`);
    }
    return problems;
  }
}
