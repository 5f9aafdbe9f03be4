/**
 * Go templates that turn the event's repository into a per-repository name (its label value, its release
 * ConfigMap, its play) inside one Sensor parameter, without one parameter or one dependency per
 * repository: a Sensor that grew by a dependency and six parameters per repository reached 478 KiB at 100
 * repositories, over the 256 KiB ArgoCD can apply.
 *
 * Each template first applies a generic rule that Go templates can compute from the repository's full name
 * (lower case, then a regexp replacement); only the repositories whose real name differs from the generic
 * one are listed, in an `if eq ... else if` chain. The real names still come from the naming functions of
 * `model/`: this file only checks, per repository, which of them the generic rule reproduces.
 *
 * Argo Events renders a parameter's `dataTemplate` with Go's text/template and Sprig over the event data
 * (argo-events `pkg/sensors/triggers/params.go`, `getValueWithTemplate`).
 */
import type { RepositoryConfig } from '../model/config-shapes';
import { parseRepository } from '../model/naming';

/** The template variable that holds the event's repository, lower case. */
const REPOSITORY_VARIABLE = '$repository';

/** Binds REPOSITORY_VARIABLE; GitHub repository names are case-insensitive, so the lookup is too. */
export const BIND_REPOSITORY = `{{- ${REPOSITORY_VARIABLE} := lower .Input.body.repository.full_name -}}`;

/**
 * A generic rule: how the Go template computes a name from the lower-case full name, and the same in
 * TypeScript, so that we know for which repositories it is right.
 */
export interface GenericRule {
  /** Go template text that renders the name; it may use REPOSITORY_VARIABLE. */
  readonly template: string;
  /** What `template` renders for `fullName`. */
  readonly render: (fullName: string) => string;
}

/** A Go string literal: the names we put here are GitHub names and Kubernetes names, no quote or backslash. */
function goString(text: string): string {
  if (/["\\\n]/.test(text))
    throw new Error(`cannot put ${JSON.stringify(text)} in a Go template string: use a name without quotes, backslashes or line breaks`);
  return `"${text}"`;
}

/** `{{ ... }}` text must not appear in a constant, or Go would run it. */
function constant(text: string): string {
  if (text.includes('{{') || text.includes('}}'))
    throw new Error(`name "${text}" must not contain "{{" or "}}" (the Sensor would run it as a Go template): choose a name without them`);
  return text;
}

/**
 * The template that renders `nameOf(repository)` for the event's repository: the generic rule, with the
 * repositories it gets wrong listed first. Expects BIND_REPOSITORY before it.
 */
export function repositoryLookup(
  repositories: readonly RepositoryConfig[],
  nameOf: (repository: RepositoryConfig) => string,
  generic: GenericRule,
): string {
  const exceptions = repositories.filter((repository) => generic.render(repository.name.toLowerCase()) !== nameOf(repository));
  if (exceptions.length === 0) return generic.template;
  const branches = exceptions.map(
    (repository, index) =>
      `{{- ${index === 0 ? 'if' : 'else if'} eq ${REPOSITORY_VARIABLE} ${goString(repository.name.toLowerCase())} -}}${constant(nameOf(repository))}`,
  );
  return `${branches.join('')}{{- else -}}${generic.template}{{- end -}}`;
}

/** The repository's label value: `owner.name`, lower case (right unless a name is long or has odd ends). */
export const GENERIC_REPOSITORY_LABEL: GenericRule = {
  template: `{{ regexReplaceAll "/" ${REPOSITORY_VARIABLE} "." }}`,
  render: (fullName) => fullName.replace('/', '.'),
};

/**
 * The service guessed from the repository's name: runs of characters outside [a-z0-9] become `-`, and
 * dashes at the ends go. `prefixOf(service)` is then the name built from it, e.g. the release ConfigMap
 * prefix; the service is placed where `prefixOf` puts a placeholder.
 */
export function genericServiceRule(prefixOf: (service: string) => string): GenericRule {
  const placeholder = 'zzservicezz';
  const parts = prefixOf(placeholder).split(placeholder);
  if (parts.length !== 2)
    throw new Error(
      `the name "${prefixOf(placeholder)}" does not contain its service exactly once: the naming function must put the service in the name once`,
    );
  const [head, tail] = parts.map(constant);
  const service = `regexReplaceAll "^-+|-+$" (regexReplaceAll "[^a-z0-9]+" (regexReplaceAll "^[^/]*/" ${REPOSITORY_VARIABLE} "") "-") ""`;
  return {
    template: `${head}{{ ${service} }}${tail}`,
    render: (fullName) => {
      const { name } = parseRepository(fullName);
      return `${head}${name.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}${tail}`;
    },
  };
}
