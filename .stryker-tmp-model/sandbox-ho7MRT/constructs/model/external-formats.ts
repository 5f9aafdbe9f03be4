/**
 * Values handed to Kubernetes, git or Argo Events as they check them, so that a config they would refuse is
 * refused at `config validate`, with the field, rather than by the cluster or by a step at run time.
 *
 * - A ConfigMap or Secret key: k8s.io/apimachinery `pkg/util/validation/validation.go`, `IsConfigMapKey`.
 * - A branch: git's `check-ref-format --branch` (refs.c `check_refname_component` and
 *   `Documentation/git-check-ref-format.txt`; `--branch` adds that a branch does not start with `-` and is not
 *   `HEAD`): a step passes it to git, where `--upload-pack=...` would be an option.
 * - A webhook endpoint: a path the EventSource serves as it is written; Go's `http.ServeMux` answers a path with
 *   `.` or `..` segments or `//` with a redirect to its cleaned form, which GitHub does not follow.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The longest ConfigMap or Secret key (a DNS-1123 subdomain's length). */
const MAX_CONFIG_MAP_KEY = 253;

/** Why Kubernetes refuses `key` as a ConfigMap or Secret key, or `undefined`. */
export function configMapKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_CONFIG_MAP_KEY) return `expected 1 to ${MAX_CONFIG_MAP_KEY} characters`;
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) return 'expected a Secret key: letters, digits, "-", "_" and "."';
  if (key === '.' || key === '..') return `"${key}" is not a key (Kubernetes refuses it: it names a folder where the key is mounted)`;
  if (key.startsWith('..')) return 'a key must not start with ".." (Kubernetes refuses it)';
  return undefined;
}

/** Why git refuses `name` as a branch (`git check-ref-format --branch`), or `undefined`. */
export function gitBranchProblem(name: string): string | undefined {
  if (name === '') return 'expected a branch name';
  if (name.startsWith('-')) return `"${name}" starts with "-": git would read it as an option`;
  if (name === 'HEAD' || name === '@') return `"${name}" is not a branch name in git`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what git refuses
  const refused = /[\u0000-\u0020\u007f~^:?*[\\]/.exec(name);
  if (refused) return `git refuses ${JSON.stringify(refused[0])} in a branch name`;
  if (name.includes('..')) return 'git refuses ".." in a branch name';
  if (name.includes('@{')) return 'git refuses "@{" in a branch name';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return 'git refuses a branch name that starts or ends with "/" or holds "//"';
  if (name.endsWith('.')) return 'git refuses a branch name that ends with "."';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return `git refuses a part of a branch name that starts with "." ("${component}")`;
    if (component.endsWith('.lock')) return `git refuses a part of a branch name that ends with ".lock" ("${component}")`;
  }
  return undefined;
}

/** Why `endpoint` is not a path the EventSource serves as written, or `undefined`. */
export function webhookEndpointProblem(endpoint: string): string | undefined {
  if (!/^\/[A-Za-z0-9._/-]*$/.test(endpoint)) return 'expected a path such as /github/webhook';
  const segments = endpoint.slice(1).split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    return 'expected a path without empty, "." or ".." segments (the server would answer with a redirect to another path, which GitHub does not follow)';
  return undefined;
}
