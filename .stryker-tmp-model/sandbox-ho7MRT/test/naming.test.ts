// @ts-nocheck
import { describe, expect, it } from 'vitest';
import {
  GENERATE_NAME_PREFIX_LIMIT,
  generateNamePrefix,
  dnsName,
  dnsNameWithSuffix,
  githubAppBotLogin,
  githubAppSecretName,
  isDnsLabel,
  isLabelKey,
  isLabelValue,
  labelValue,
  parseRepository,
  repositoryLabelValue,
  shortHash,
  workspacePvcName,
} from '../constructs/model/naming';
import { CodeRunLabels, PlayLabels, WorkspaceLabels } from '../constructs/model/labels';

const HOSTILE = [
  'Octo-Org/Payments_v2.API',
  'UPPER CASE and spaces',
  'a'.repeat(200),
  'Ünïcödé-sérvice',
  '日本語-service',
  '--leading-and-trailing--',
  'dots.and_underscores',
  'x',
];

describe('generateNamePrefix', () => {
  it('ends a short base with a hyphen, and cuts a long one so that the 5 random characters fit 63', () => {
    expect(generateNamePrefix('resume-waiting-pr-created')).toBe('resume-waiting-pr-created-');
    expect(GENERATE_NAME_PREFIX_LIMIT + 5).toBe(63);
    expect(generateNamePrefix('x'.repeat(70))).toBe('x'.repeat(58));
  });
});

describe('dnsName', () => {
  it.each(HOSTILE)('makes a DNS-1123 label of at most 63 characters from %j', (raw) => {
    const name = dnsName(['play', raw]);
    expect(isDnsLabel(name)).toBe(true);
    expect(name.length).toBeLessThanOrEqual(63);
  });

  it('keeps short names readable', () => {
    expect(dnsName(['play', 'Octo_Org/Payments.API'])).toBe('play-octo-org-payments-api');
    expect(dnsName('Ünïcödé')).toBe('unicode');
  });

  it('truncates with a stable hash, so long names that share a prefix stay apart', () => {
    const a = dnsName(['workspace', `${'s'.repeat(80)}-alpha`]);
    const b = dnsName(['workspace', `${'s'.repeat(80)}-beta`]);
    expect(a).toHaveLength(63);
    expect(a).not.toBe(b);
    expect(dnsName(['workspace', `${'s'.repeat(80)}-alpha`])).toBe(a);
  });

  it('leaves out parts with no letter or digit, and keeps a name that fits exactly as it is', () => {
    expect(dnsName(['play', '日本語', 'x'])).toBe('play-x');
    expect(dnsName('a'.repeat(63))).toBe('a'.repeat(63));
  });

  it('hashes the parts, not only their letters, so parts split differently stay apart when cut', () => {
    const long = 's'.repeat(80);
    expect(dnsName([`${long}ab`, 'c'])).not.toBe(dnsName([`${long}a`, 'bc']));
  });

  it('refuses input with no letter or digit', () => {
    expect(() => dnsName('///')).toThrow(/no letter or digit/);
    expect(() => dnsName('日本語')).toThrow(/no letter or digit/);
  });
});

describe('shortHash', () => {
  it('is stable and short', () => {
    expect(shortHash('octo-org/payments')).toBe(shortHash('octo-org/payments'));
    expect(shortHash('octo-org/payments')).toMatch(/^[0-9a-z]{6}$/);
    expect(shortHash('a')).not.toBe(shortHash('b'));
  });
});

describe('dnsNameWithSuffix', () => {
  it('keeps the suffix whole when the base is cut', () => {
    const name = dnsNameWithSuffix(`workspace-${'very-long-service-'.repeat(6)}`, 'cipher');
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name.endsWith('-cipher')).toBe(true);
    expect(isDnsLabel(name)).toBe(true);
  });

  it('refuses a suffix that leaves no room', () => {
    expect(() => dnsNameWithSuffix('base', 'x'.repeat(60))).toThrow(/no room/);
  });

  it('takes the longest suffix that leaves room for a hash and one character of the base', () => {
    // 63 characters: a 54-character suffix, its '-', and 8 for the base (a 6-character hash, '-', one character).
    expect(dnsNameWithSuffix('base', 'x'.repeat(54))).toBe(`base-${'x'.repeat(54)}`);
    expect(() => dnsNameWithSuffix('base', 'x'.repeat(55))).toThrow(/no room/);
  });
});

describe('workspacePvcName', () => {
  it('shares one workspace among implementation agents and isolates the others', () => {
    expect(workspacePvcName('payments', 'rex', true)).toBe('workspace-payments');
    expect(workspacePvcName('payments', 'blaze', true)).toBe('workspace-payments');
    expect(workspacePvcName('payments', 'cleo', false)).toBe('workspace-payments-cleo');
  });

  it.each(HOSTILE)('stays a legal name for service %j and keeps the agent suffix', (service) => {
    const isolated = workspacePvcName(service, 'tess', false);
    expect(isDnsLabel(isolated)).toBe(true);
    expect(isolated.endsWith('-tess')).toBe(true);
    expect(isDnsLabel(workspacePvcName(service, 'rex', true))).toBe(true);
  });
});

describe('labelValue and repositoryLabelValue', () => {
  it('encodes owner/name one-to-one, in lower case', () => {
    expect(repositoryLabelValue('Octo-Org/Payments.API')).toBe('octo-org.payments.api');
    expect(repositoryLabelValue('a-b/c')).not.toBe(repositoryLabelValue('a/b-c'));
    expect(isLabelValue('octo-org/payments')).toBe(false);
  });

  it.each(HOSTILE)('always yields a legal label value from %j', (raw) => {
    expect(isLabelValue(labelValue(raw))).toBe(true);
  });

  it('cuts long repository names with a hash', () => {
    const value = repositoryLabelValue(`octo-org/${'r'.repeat(100)}`);
    expect(value.length).toBeLessThanOrEqual(63);
    expect(isLabelValue(value)).toBe(true);
    expect(value).not.toBe(repositoryLabelValue(`octo-org/${'r'.repeat(99)}`));
  });

  it('rejects timestamps and slashes as label values, as Kubernetes does', () => {
    expect(isLabelValue('2025-11-12T10:00:00Z')).toBe(false);
    expect(isLabelValue('')).toBe(true);
    expect(isLabelValue('-x')).toBe(false);
    expect(isLabelValue('x'.repeat(64))).toBe(false);
  });
});

describe('parseRepository', () => {
  it.each(['octo-org', 'octo/org/x', '/payments', 'octo org/payments', 'octo/..', '-octo/payments'])('refuses %j', (raw) => {
    expect(() => parseRepository(raw)).toThrow(/expected owner\/name/);
  });
});

describe('derived names', () => {
  it('derives GitHub App secrets and bot logins', () => {
    expect(githubAppSecretName('5DLabs-Rex')).toBe('github-app-5dlabs-rex');
    expect(githubAppBotLogin('5DLabs-Cleo')).toBe('5dlabs-cleo[bot]');
  });

  it('uses only legal label keys', () => {
    for (const key of [...Object.values(PlayLabels), ...Object.values(CodeRunLabels), ...Object.values(WorkspaceLabels)]) {
      expect(isLabelKey(key), key).toBe(true);
    }
    expect(isLabelKey('agents.platform/current-agent')).toBe(true);
    expect(isLabelKey('bad key')).toBe(false);
    expect(isLabelKey('Bad_Prefix/x')).toBe(false);
  });
});
