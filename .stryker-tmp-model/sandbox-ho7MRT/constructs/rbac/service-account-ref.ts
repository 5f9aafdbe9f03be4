// @ts-nocheck
import type * as kplus from 'cdk8s-plus-28';
import { serviceAccountNameProblem } from '../model/naming';
import { checkProp } from '../model/prop-checks';

/** A service account as a prop takes it: its name, or a cdk8s-plus service account (such as `PlayRbac.serviceAccount`). */
export type ServiceAccountRef = string | kplus.IServiceAccount;

/**
 * The name of a service account prop, checked once.
 *
 * @throws when the name cannot name a ServiceAccount
 */
export function serviceAccountNameOf(owner: string, prop: string, account: ServiceAccountRef): string {
  const name = typeof account === 'string' ? account : account.name;
  checkProp(owner, prop, name, serviceAccountNameProblem(name));
  return name;
}
