/**
 * Name collisions found on what was built: two objects of a platform with the same API group, kind, namespace
 * and name are one object to the API server (applying the files keeps whichever comes last). The objects
 * themselves are the source of truth, not a list of the names the config derives kept beside the naming
 * functions: every object the constructs make is checked, whatever named it. Each collision is reported once
 * per pair of origins, at the config path to change, with the kinds it takes together (a service account
 * name gives a ServiceAccount, a Role and a RoleBinding).
 */
import { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { formatPath } from '../model/format-path';
import type { ObjectOrigin, ObjectOrigins } from './object-origins';

/** One object of the platform and where it comes from. */
interface Built {
  readonly identity: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly origin: ObjectOrigin;
}

/** Two origins that make objects of one name in one namespace, and the kinds of those objects. */
interface Collision {
  readonly first: ObjectOrigin;
  readonly second: ObjectOrigin;
  readonly namespace?: string;
  readonly name: string;
  readonly kinds: string[];
}

const originKey = (origin: ObjectOrigin): string => `${origin.path === undefined ? '' : formatPath(origin.path)}\u0000${origin.owner}`;

/** The objects under `root`, with their origins (cdk8s names every object, one given a generateName too). */
function builtObjects(root: IConstruct, origins: ObjectOrigins, fallback: ObjectOrigin): Built[] {
  const built: Built[] = [];
  for (const child of root.node.findAll()) {
    if (!(child instanceof ApiObject)) continue;
    const name = child.name;
    const namespace = child.metadata.namespace;
    const identity = [child.apiGroup, child.kind, namespace ?? '', name].join('\u0000');
    built.push({ identity, kind: child.kind, namespace, name, origin: origins.of(child, fallback) });
  }
  return built;
}

/** Each later object of an identity paired with the first, pairs of the same origins and name merged. */
function collisionsOf(built: readonly Built[]): Collision[] {
  const firstOf = new Map<string, Built>();
  const collisions = new Map<string, Collision>();
  for (const object of built) {
    const first = firstOf.get(object.identity);
    if (first === undefined) {
      firstOf.set(object.identity, object);
      continue;
    }
    const key = [originKey(first.origin), originKey(object.origin), object.namespace ?? '', object.name].join('\u0001');
    const known = collisions.get(key);
    if (known === undefined)
      collisions.set(key, {
        first: first.origin,
        second: object.origin,
        namespace: object.namespace,
        name: object.name,
        kinds: [object.kind],
      });
    else if (!known.kinds.includes(object.kind)) known.kinds.push(object.kind);
  }
  return [...collisions.values()];
}

/** `ServiceAccount`, `Role and RoleBinding`, `ServiceAccount, Role and RoleBinding`. */
function listed(kinds: readonly string[]): string {
  return kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}`;
}

/** One line per collision, at the path to change: the later side with a config path, naming the other side. */
function lineOf(collision: Collision): string {
  const what = `the ${listed(collision.kinds)} "${collision.name}"${collision.namespace === undefined ? '' : ` in namespace "${collision.namespace}"`}`;
  const { first, second } = collision;
  const [changed, other] = second.path !== undefined ? [second, first] : [first, second];
  if (changed.path === undefined)
    return `AgentPlatform: ${first.owner} and ${second.owner} both make ${what}: a defect of the platform's constructs`;
  const path = formatPath(changed.path);
  if (originKey(changed) === originKey(other)) return `${path}: ${what} is made twice for ${changed.owner}`;
  if (other.path === undefined)
    return `${path}: ${changed.owner} and ${other.owner} both make ${what}, a name built into ${other.owner}; choose another name`;
  return `${path}: ${changed.owner} and ${formatPath(other.path)} (${other.owner}) both make ${what}; rename one of them`;
}

/**
 * Every name collision among the objects under `root`, one line each naming the config paths of both sides.
 * @param fallback the origin of an object that no recorded construct holds
 */
export function objectCollisionProblems(root: IConstruct, origins: ObjectOrigins, fallback: ObjectOrigin): string[] {
  return collisionsOf(builtObjects(root, origins, fallback)).map(lineOf);
}
