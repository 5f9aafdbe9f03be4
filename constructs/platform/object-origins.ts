/**
 * Which part of the configuration each object of a platform comes from, kept by the platform builder beside
 * the construct tree (never in the output): the config path to change when an object's name collides, and
 * what the object belongs to, for the message. Objects take the origin of the nearest construct above them
 * that has one, so that one record covers all the objects a construct makes.
 */
import type { IConstruct } from 'constructs';

/** Where an object comes from. */
export interface ObjectOrigin {
  /**
   * The config field its name derives from, e.g. `['repositories', 2, 'service']`; none for an object the
   * platform names itself (a built-in name).
   */
  readonly path?: readonly (string | number)[];
  /** What it belongs to, e.g. `repository "octo/web"`, `the remediator`. */
  readonly owner: string;
}

/** The origins of the constructs of one platform. */
export class ObjectOrigins {
  private readonly byConstruct = new Map<IConstruct, ObjectOrigin>();

  /** Records where `construct` and everything under it come from; returns `construct`. */
  public record<T extends IConstruct>(construct: T, origin: ObjectOrigin): T {
    this.byConstruct.set(construct, origin);
    return construct;
  }

  /** The origin of `construct`: its own, else that of the nearest construct above it, else `fallback`. */
  public of(construct: IConstruct, fallback: ObjectOrigin): ObjectOrigin {
    for (let current: IConstruct | undefined = construct; current !== undefined; current = current.node.scope) {
      const origin = this.byConstruct.get(current);
      if (origin !== undefined) return origin;
    }
    return fallback;
  }
}
