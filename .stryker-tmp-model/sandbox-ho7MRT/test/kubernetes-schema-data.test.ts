/**
 * The Kubernetes schema data agent-play carries (`schemas/kubernetes.json`, its provenance and license) is
 * exactly what `npm run schemas:kubernetes` generates from the OpenAPI v3 documents of the Go module
 * k8s.io/kubernetes, and each kind means what the upstream definition means. Needs the module in the Go module
 * cache (`go mod download k8s.io/kubernetes@v1.37.2`); skipped with the reason without it. What the schemas
 * accept and refuse is tested in every clone by test/kubernetes-kinds.test.ts.
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateKubernetesSchemaFiles,
  KUBERNETES_SCHEMA_FILES,
  KUBERNETES_UPSTREAM,
  kubernetesModuleDir,
} from '../scripts/generate-kubernetes-schemas';
import { skipNote } from './support/skip-note';

const MODULE_DIR = kubernetesModuleDir();
const HAS_MODULE = MODULE_DIR !== undefined;
const MODULE_MISSING = `${KUBERNETES_UPSTREAM.module}@${KUBERNETES_UPSTREAM.version} is not in the Go module cache (go mod download ${KUBERNETES_UPSTREAM.module}@${KUBERNETES_UPSTREAM.version})`;

const committed = (name: string): string => readFileSync(path.resolve(__dirname, '..', 'schemas', name), 'utf8');

describe('schemas/kubernetes.json (the built-in Kubernetes schemas)', () => {
  it('names the module, version, upstream files with their sha256, and the license', () => {
    const provenance = JSON.parse(committed('PROVENANCE-kubernetes.json'))['kubernetes.json'];
    expect(provenance).toMatchObject({ module: 'k8s.io/kubernetes', version: 'v1.37.2', licenseName: 'Apache-2.0' });
    expect(Object.keys(provenance.sha256)).toContain('apis__apps__v1_openapi.json');
    for (const hash of Object.values<string>(provenance.sha256)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(committed('LICENSE-kubernetes')).toContain('Apache License');
    expect(JSON.parse(committed('kubernetes.json')).version).toBe(KUBERNETES_UPSTREAM.version);
  });

  it('holds every kind the issue asks for, stable versions only', () => {
    const kinds: Record<string, Record<string, string>> = JSON.parse(committed('kubernetes.json')).kinds;
    const listed = Object.entries(kinds).flatMap(([apiVersion, byKind]) => Object.keys(byKind).map((kind) => `${apiVersion}/${kind}`));
    for (const wanted of [
      'v1/Namespace',
      'v1/ConfigMap',
      'v1/Secret',
      'v1/ServiceAccount',
      'v1/Service',
      'v1/Pod',
      'apps/v1/Deployment',
      'apps/v1/StatefulSet',
      'apps/v1/DaemonSet',
      'apps/v1/ReplicaSet',
      'batch/v1/Job',
      'batch/v1/CronJob',
      'v1/PersistentVolumeClaim',
      'v1/PersistentVolume',
      'rbac.authorization.k8s.io/v1/Role',
      'rbac.authorization.k8s.io/v1/RoleBinding',
      'rbac.authorization.k8s.io/v1/ClusterRole',
      'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
      'networking.k8s.io/v1/Ingress',
      'networking.k8s.io/v1/NetworkPolicy',
      'autoscaling/v2/HorizontalPodAutoscaler',
      'policy/v1/PodDisruptionBudget',
      'v1/LimitRange',
      'v1/ResourceQuota',
      'apiextensions.k8s.io/v1/CustomResourceDefinition',
      'storage.k8s.io/v1/StorageClass',
      'scheduling.k8s.io/v1/PriorityClass',
    ])
      expect(listed).toContain(wanted);
    expect(listed.filter((kind) => /\/v[0-9]+(alpha|beta)/.test(kind) || kind.endsWith('List'))).toEqual([]);
  });

  it.runIf(HAS_MODULE)(
    `is what \`npm run schemas:kubernetes\` writes from the module (run it and commit the result)${skipNote(HAS_MODULE, MODULE_MISSING)}`,
    () => {
      const generated = generateKubernetesSchemaFiles(MODULE_DIR as string);
      expect([...generated.keys()].sort()).toEqual([...KUBERNETES_SCHEMA_FILES].sort());
      for (const name of KUBERNETES_SCHEMA_FILES)
        expect(committed(name) === generated.get(name), `schemas/${name} differs from the generator's output`).toBe(true);
    },
  );

  it.runIf(HAS_MODULE)(
    `keeps each kind's fields and required lists as the upstream definition states them${skipNote(HAS_MODULE, MODULE_MISSING)}`,
    () => {
      const openApi = path.join(MODULE_DIR as string, KUBERNETES_UPSTREAM.openApiPath);
      const upstream = JSON.parse(readFileSync(path.join(openApi, 'apis__apps__v1_openapi.json'), 'utf8')).components.schemas;
      const definitions = JSON.parse(committed('kubernetes.json')).definitions;
      for (const name of ['io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.core.v1.Container', 'io.k8s.api.core.v1.PodSpec']) {
        expect(Object.keys(definitions[name].properties).sort()).toEqual(Object.keys(upstream[name].properties).sort());
        expect(definitions[name].required).toEqual(upstream[name].required);
      }
    },
  );
});
