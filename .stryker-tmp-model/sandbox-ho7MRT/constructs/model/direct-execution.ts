/**
 * Direct execution (`execution: direct`): agent stages run the agent's CLI in an Argo step instead of creating
 * a CodeRun for a controller. Here: the mode and resource schemas, their defaults (defined once), the names of
 * the Secrets a direct agent reads, the workspace paths of its sessions, and the rule that refuses a CLI whose
 * non-interactive session could not be confirmed (see executors.ts).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { z } from 'zod';
import { EXECUTOR_TABLE, EXECUTORS, executorOfCli, type Executor, type ExecutorName } from './executors';

/** How agent stages run: `coderun` creates a CodeRun for the controller; `direct` runs the agent's CLI in the play. */
export const EXECUTION_MODES = ['coderun', 'direct'] as const;

/** One of `EXECUTION_MODES`. */
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** How agent stages run unless the config says otherwise. */
export const DEFAULT_EXECUTION: ExecutionMode = stryMutAct_9fa48("0") ? "" : (stryCov_9fa48("0"), 'coderun');

/**
 * The `execution` field of the platform and of an agent.
 * @internal zod's types stay out of the public declarations.
 */
export const ExecutionSchema = z.enum(EXECUTION_MODES);

/** CPU as Kubernetes writes it: millicores (`500m`) or cores (`2`, `1.5`). */
const CPU = stryMutAct_9fa48("10") ? /^([1-9][0-9]*m|[0-9]+(\.[^0-9]{1,3})?)$/ : stryMutAct_9fa48("9") ? /^([1-9][0-9]*m|[0-9]+(\.[0-9])?)$/ : stryMutAct_9fa48("8") ? /^([1-9][0-9]*m|[0-9]+(\.[0-9]{1,3}))$/ : stryMutAct_9fa48("7") ? /^([1-9][0-9]*m|[^0-9]+(\.[0-9]{1,3})?)$/ : stryMutAct_9fa48("6") ? /^([1-9][0-9]*m|[0-9](\.[0-9]{1,3})?)$/ : stryMutAct_9fa48("5") ? /^([1-9][^0-9]*m|[0-9]+(\.[0-9]{1,3})?)$/ : stryMutAct_9fa48("4") ? /^([1-9][0-9]m|[0-9]+(\.[0-9]{1,3})?)$/ : stryMutAct_9fa48("3") ? /^([^1-9][0-9]*m|[0-9]+(\.[0-9]{1,3})?)$/ : stryMutAct_9fa48("2") ? /^([1-9][0-9]*m|[0-9]+(\.[0-9]{1,3})?)/ : stryMutAct_9fa48("1") ? /([1-9][0-9]*m|[0-9]+(\.[0-9]{1,3})?)$/ : (stryCov_9fa48("1", "2", "3", "4", "5", "6", "7", "8", "9", "10"), /^([1-9][0-9]*m|[0-9]+(\.[0-9]{1,3})?)$/);
/** Memory in binary units (`512Mi`, `4Gi`). */
const MEMORY = stryMutAct_9fa48("15") ? /^[1-9][^0-9]*(Ki|Mi|Gi|Ti)$/ : stryMutAct_9fa48("14") ? /^[1-9][0-9](Ki|Mi|Gi|Ti)$/ : stryMutAct_9fa48("13") ? /^[^1-9][0-9]*(Ki|Mi|Gi|Ti)$/ : stryMutAct_9fa48("12") ? /^[1-9][0-9]*(Ki|Mi|Gi|Ti)/ : stryMutAct_9fa48("11") ? /[1-9][0-9]*(Ki|Mi|Gi|Ti)$/ : (stryCov_9fa48("11", "12", "13", "14", "15"), /^[1-9][0-9]*(Ki|Mi|Gi|Ti)$/);
const cpu = z.string().regex(CPU, stryMutAct_9fa48("16") ? {} : (stryCov_9fa48("16"), {
  message: stryMutAct_9fa48("17") ? "" : (stryCov_9fa48("17"), 'expected CPU such as 500m or 2')
}));
const memory = z.string().regex(MEMORY, stryMutAct_9fa48("18") ? {} : (stryCov_9fa48("18"), {
  message: stryMutAct_9fa48("19") ? "" : (stryCov_9fa48("19"), 'expected memory such as 512Mi or 4Gi')
}));

/** The requests and limits of a direct agent's container unless the config says otherwise. */
export const DEFAULT_DIRECT_RESOURCES = {
  requests: {
    cpu: '500m',
    memory: '1Gi'
  },
  limits: {
    cpu: '2',
    memory: '4Gi'
  }
} as const;

/** CPU and memory, each optional (an agent overrides only what it names). */
const QuantitiesSchema = z.strictObject(stryMutAct_9fa48("20") ? {} : (stryCov_9fa48("20"), {
  cpu: cpu.optional().describe(stryMutAct_9fa48("21") ? "" : (stryCov_9fa48("21"), "CPU, e.g. 500m or 2. @default the platform's")),
  memory: memory.optional().describe(stryMutAct_9fa48("22") ? "" : (stryCov_9fa48("22"), "Memory, e.g. 512Mi or 4Gi. @default the platform's"))
}));

/**
 * An agent's override of the direct resources (`agents.X.resources`): only what it names changes.
 * @internal zod's types stay out of the public declarations: `AgentResourcesOverride` is its type.
 */
export const AgentResourcesSchema = z.strictObject(stryMutAct_9fa48("23") ? {} : (stryCov_9fa48("23"), {
  requests: QuantitiesSchema.optional().describe(stryMutAct_9fa48("24") ? "" : (stryCov_9fa48("24"), "The container's requests. @default the platform's")),
  limits: QuantitiesSchema.optional().describe(stryMutAct_9fa48("25") ? "" : (stryCov_9fa48("25"), "The container's limits. @default the platform's"))
}));

/**
 * The resources of a direct agent's container: requests and limits of CPU and memory.
 * @internal zod's types stay out of the public declarations: `AgentResources` is its type.
 */
export const ResourcesSchema = z.strictObject(stryMutAct_9fa48("26") ? {} : (stryCov_9fa48("26"), {
  requests: z.strictObject(stryMutAct_9fa48("27") ? {} : (stryCov_9fa48("27"), {
    cpu: cpu.default(DEFAULT_DIRECT_RESOURCES.requests.cpu).describe(stryMutAct_9fa48("28") ? "" : (stryCov_9fa48("28"), 'The CPU requested, e.g. 500m or 2.')),
    memory: memory.default(DEFAULT_DIRECT_RESOURCES.requests.memory).describe(stryMutAct_9fa48("29") ? "" : (stryCov_9fa48("29"), 'The memory requested, e.g. 512Mi or 4Gi.'))
  })).prefault({}).describe(stryMutAct_9fa48("30") ? "" : (stryCov_9fa48("30"), "The container's requests.")),
  limits: z.strictObject(stryMutAct_9fa48("31") ? {} : (stryCov_9fa48("31"), {
    cpu: cpu.default(DEFAULT_DIRECT_RESOURCES.limits.cpu).describe(stryMutAct_9fa48("32") ? "" : (stryCov_9fa48("32"), 'The most CPU the container may use.')),
    memory: memory.default(DEFAULT_DIRECT_RESOURCES.limits.memory).describe(stryMutAct_9fa48("33") ? "" : (stryCov_9fa48("33"), 'The most memory the container may use.'))
  })).prefault({}).describe(stryMutAct_9fa48("34") ? "" : (stryCov_9fa48("34"), "The container's limits."))
}));

/** GitHub's REST API, where a direct agent's App gets its installation tokens, unless the config says otherwise. */
export const GITHUB_API_URL = stryMutAct_9fa48("35") ? "" : (stryCov_9fa48("35"), 'https://api.github.com');
/** GitHub's git server, where a direct agent clones `{server}/{owner}/{name}.git`, unless the config says otherwise. */
export const GITHUB_SERVER_URL = stryMutAct_9fa48("36") ? "" : (stryCov_9fa48("36"), 'https://github.com');

/**
 * An https URL without user, query, fragment or trailing slash (the script appends `/app/...` and
 * `/{owner}/{name}.git`), and without `{`: it reaches the pod through an Argo template, where `{{` would be
 * an expression.
 */
const HTTPS_URL = stryMutAct_9fa48("55") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[^A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("54") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-])*$/ : stryMutAct_9fa48("53") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)$/ : stryMutAct_9fa48("52") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[^0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("51") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9])?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("50") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("49") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[^A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("48") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[^A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("47") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-][A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("46") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9]))*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("45") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[^A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("44") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("43") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[^A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("42") ? /^https:\/\/[A-Za-z0-9](?:[^A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("41") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-][A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("40") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("39") ? /^https:\/\/[^A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : stryMutAct_9fa48("38") ? /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*/ : stryMutAct_9fa48("37") ? /https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/ : (stryCov_9fa48("37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51", "52", "53", "54", "55"), /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/);
const httpsUrl = stryMutAct_9fa48("56") ? () => undefined : (stryCov_9fa48("56"), (() => {
  const httpsUrl = (example: string) => z.string().regex(HTTPS_URL, stryMutAct_9fa48("57") ? {} : (stryCov_9fa48("57"), {
    message: stryMutAct_9fa48("58") ? `` : (stryCov_9fa48("58"), `expected an https URL without a trailing slash, such as ${example}`)
  }));
  return httpsUrl;
})());

/**
 * Where direct agents reach GitHub: github.com, or a GitHub Enterprise Server (`apiUrl`
 * `https://{host}/api/v3`, `serverUrl` `https://{host}`).
 * @internal zod's types stay out of the public declarations: `GithubEndpoints` is its type.
 */
export const GithubEndpointsSchema = z.strictObject(stryMutAct_9fa48("59") ? {} : (stryCov_9fa48("59"), {
  apiUrl: httpsUrl(stryMutAct_9fa48("60") ? "" : (stryCov_9fa48("60"), 'https://github.example.com/api/v3')).default(GITHUB_API_URL).describe(stryMutAct_9fa48("61") ? "" : (stryCov_9fa48("61"), "GitHub's REST API, where a direct agent's App gets its installation tokens.")),
  serverUrl: httpsUrl(stryMutAct_9fa48("62") ? "" : (stryCov_9fa48("62"), 'https://github.example.com')).default(GITHUB_SERVER_URL).describe(stryMutAct_9fa48("63") ? "" : (stryCov_9fa48("63"), "GitHub's git server, where a direct agent clones its repository."))
}));

/**
 * The platform's settings of direct execution (`direct`): the default resources of every direct agent, and
 * the GitHub its agents work with.
 * @internal zod's types stay out of the public declarations: `DirectConfig` is its type.
 */
export const DirectSchema = z.strictObject(stryMutAct_9fa48("64") ? {} : (stryCov_9fa48("64"), {
  resources: ResourcesSchema.prefault({}).describe(stryMutAct_9fa48("65") ? "" : (stryCov_9fa48("65"), "The default resources of every direct agent's container.")),
  github: GithubEndpointsSchema.prefault({}).describe(stryMutAct_9fa48("66") ? "" : (stryCov_9fa48("66"), 'The GitHub direct agents work with: github.com or a GitHub Enterprise Server.'))
}));

// Their types: plain interfaces generated from these schemas (scripts/generate-config-types.ts).
import type { AgentResources, AgentResourcesOverride } from './config-types.generated';
export type { AgentResources, AgentResourcesOverride, DirectConfig, GithubEndpoints } from './config-types.generated';

/** The resources of an agent: the platform's, with the agent's overrides on top. */
export function resourcesOf(platform: AgentResources, override: AgentResourcesOverride | undefined): AgentResources {
  if (stryMutAct_9fa48("67")) {
    {}
  } else {
    stryCov_9fa48("67");
    return stryMutAct_9fa48("68") ? {} : (stryCov_9fa48("68"), {
      requests: stryMutAct_9fa48("69") ? {} : (stryCov_9fa48("69"), {
        ...platform.requests,
        ...(stryMutAct_9fa48("70") ? override.requests : (stryCov_9fa48("70"), override?.requests))
      }),
      limits: stryMutAct_9fa48("71") ? {} : (stryCov_9fa48("71"), {
        ...platform.limits,
        ...(stryMutAct_9fa48("72") ? override.limits : (stryCov_9fa48("72"), override?.limits))
      })
    });
  }
}
const MEMORY_FACTOR: Readonly<Record<string, number>> = stryMutAct_9fa48("73") ? {} : (stryCov_9fa48("73"), {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40
});
function cpuMillis(text: string): number {
  if (stryMutAct_9fa48("74")) {
    {}
  } else {
    stryCov_9fa48("74");
    return (stryMutAct_9fa48("75") ? text.startsWith('m') : (stryCov_9fa48("75"), text.endsWith(stryMutAct_9fa48("76") ? "" : (stryCov_9fa48("76"), 'm')))) ? Number(stryMutAct_9fa48("77") ? text : (stryCov_9fa48("77"), text.slice(0, stryMutAct_9fa48("78") ? +1 : (stryCov_9fa48("78"), -1)))) : stryMutAct_9fa48("79") ? Number(text) / 1000 : (stryCov_9fa48("79"), Number(text) * 1000);
  }
}
function memoryBytes(text: string): number {
  if (stryMutAct_9fa48("80")) {
    {}
  } else {
    stryCov_9fa48("80");
    return stryMutAct_9fa48("81") ? Number(text.slice(0, -2)) / MEMORY_FACTOR[text.slice(-2)] : (stryCov_9fa48("81"), Number(stryMutAct_9fa48("82") ? text : (stryCov_9fa48("82"), text.slice(0, stryMutAct_9fa48("83") ? +2 : (stryCov_9fa48("83"), -2)))) * MEMORY_FACTOR[stryMutAct_9fa48("84") ? text : (stryCov_9fa48("84"), text.slice(stryMutAct_9fa48("85") ? +2 : (stryCov_9fa48("85"), -2)))]);
  }
}

/** Why these resources cannot be scheduled as written (a request above its limit), or `undefined`. */
export function resourcesProblem(resources: AgentResources): string | undefined {
  if (stryMutAct_9fa48("86")) {
    {}
  } else {
    stryCov_9fa48("86");
    if (stryMutAct_9fa48("90") ? cpuMillis(resources.requests.cpu) <= cpuMillis(resources.limits.cpu) : stryMutAct_9fa48("89") ? cpuMillis(resources.requests.cpu) >= cpuMillis(resources.limits.cpu) : stryMutAct_9fa48("88") ? false : stryMutAct_9fa48("87") ? true : (stryCov_9fa48("87", "88", "89", "90"), cpuMillis(resources.requests.cpu) > cpuMillis(resources.limits.cpu))) return stryMutAct_9fa48("91") ? `` : (stryCov_9fa48("91"), `the CPU request ${resources.requests.cpu} is above the limit ${resources.limits.cpu}; lower the request or raise the limit`);
    if (stryMutAct_9fa48("95") ? memoryBytes(resources.requests.memory) <= memoryBytes(resources.limits.memory) : stryMutAct_9fa48("94") ? memoryBytes(resources.requests.memory) >= memoryBytes(resources.limits.memory) : stryMutAct_9fa48("93") ? false : stryMutAct_9fa48("92") ? true : (stryCov_9fa48("92", "93", "94", "95"), memoryBytes(resources.requests.memory) > memoryBytes(resources.limits.memory))) return stryMutAct_9fa48("96") ? `` : (stryCov_9fa48("96"), `the memory request ${resources.requests.memory} is above the limit ${resources.limits.memory}; lower the request or raise the limit`);
    return undefined;
  }
}

/** The execution mode of an agent: its own, else the platform's. */
export function executionOf(agent: {
  readonly execution?: ExecutionMode;
}, platform: ExecutionMode | undefined): ExecutionMode {
  if (stryMutAct_9fa48("97")) {
    {}
  } else {
    stryCov_9fa48("97");
    return stryMutAct_9fa48("98") ? (agent.execution ?? platform) && DEFAULT_EXECUTION : (stryCov_9fa48("98"), (stryMutAct_9fa48("99") ? agent.execution && platform : (stryCov_9fa48("99"), agent.execution ?? platform)) ?? DEFAULT_EXECUTION);
  }
}

/** How one agent works for one repository: its execution mode and the CLI it runs. */
export interface AgentExecution {
  /** `direct` (the CLI runs in the play's pod) or `coderun` (a CodeRun for the controller). */
  readonly mode: ExecutionMode;
  /** The CLI: the repository's `agentClis` binding, else the agent's own `cli`. */
  readonly cli: string;
}

/** The CLI an agent runs for a repository: the repository's `agentClis` binding wins over the agent's own. */
export function agentCliOf(agentName: string, agent: {
  readonly cli: string;
}, repository: {
  readonly agentClis?: Readonly<Record<string, string>>;
}): string {
  if (stryMutAct_9fa48("100")) {
    {}
  } else {
    stryCov_9fa48("100");
    return stryMutAct_9fa48("101") ? repository.agentClis?.[agentName] && agent.cli : (stryCov_9fa48("101"), (stryMutAct_9fa48("102") ? repository.agentClis[agentName] : (stryCov_9fa48("102"), repository.agentClis?.[agentName])) ?? agent.cli);
  }
}

/**
 * How an agent works for a repository (its mode and CLI), resolved from the config the one way the play
 * templates resolve it.
 *
 * @throws Error when the agent is not configured
 */
export function agentExecution(config: {
  readonly execution?: ExecutionMode;
  readonly agents: Readonly<Record<string, {
    readonly cli: string;
    readonly execution?: ExecutionMode;
  }>>;
}, repository: {
  readonly agentClis?: Readonly<Record<string, string>>;
}, agentName: string): AgentExecution {
  if (stryMutAct_9fa48("103")) {
    {}
  } else {
    stryCov_9fa48("103");
    const agent = config.agents[agentName];
    if (stryMutAct_9fa48("106") ? agent !== undefined : stryMutAct_9fa48("105") ? false : stryMutAct_9fa48("104") ? true : (stryCov_9fa48("104", "105", "106"), agent === undefined)) throw new Error(stryMutAct_9fa48("107") ? `` : (stryCov_9fa48("107"), `agent "${agentName}" is not configured; configured: ${Object.keys(config.agents).join(stryMutAct_9fa48("108") ? "" : (stryCov_9fa48("108"), ', '))}`));
    return stryMutAct_9fa48("109") ? {} : (stryCov_9fa48("109"), {
      mode: executionOf(agent, config.execution),
      cli: agentCliOf(agentName, agent, repository)
    });
  }
}

/**
 * Why an agent bound to CLI `cliName` cannot run direct, as the end of a sentence, or `undefined` when it can.
 * The caller names the agent's path and suggests `execution: coderun`.
 */
export function directRefusal(cliName: string, cli: {
  readonly executor?: ExecutorName;
}): string | undefined {
  if (stryMutAct_9fa48("110")) {
    {}
  } else {
    stryCov_9fa48("110");
    const executor = executorOfCli(cliName, cli);
    if (stryMutAct_9fa48("113") ? executor !== undefined : stryMutAct_9fa48("112") ? false : stryMutAct_9fa48("111") ? true : (stryCov_9fa48("111", "112", "113"), executor === undefined)) return stryMutAct_9fa48("114") ? `` : (stryCov_9fa48("114"), `CLI "${cliName}" names no executor, so its non-interactive invocation is unknown (set clis.${cliName}.executor to one of: ${EXECUTORS.join(stryMutAct_9fa48("115") ? "" : (stryCov_9fa48("115"), ', '))})`);
    const entry: Executor = EXECUTOR_TABLE[executor];
    return (stryMutAct_9fa48("118") ? entry.refusal !== undefined : stryMutAct_9fa48("117") ? false : stryMutAct_9fa48("116") ? true : (stryCov_9fa48("116", "117", "118"), entry.refusal === undefined)) ? undefined : stryMutAct_9fa48("119") ? `` : (stryCov_9fa48("119"), `CLI "${cliName}" (executor ${executor}) cannot run direct: ${entry.refusal}`);
  }
}

/**
 * The largest system prompt of a direct agent, in bytes (UTF-8). The CLI gets it as one argument (claude's
 * `--append-system-prompt`) or at the head of its first prompt, beside at most 48 KiB of context; Linux
 * refuses a single argument over 128 KiB (MAX_ARG_STRLEN), which would fail every attempt.
 */
export const MAX_DIRECT_SYSTEM_PROMPT_BYTES = stryMutAct_9fa48("120") ? 64 / 1024 : (stryCov_9fa48("120"), 64 * 1024);

/** The folder, relative to the workspace root, where a task's sessions and its context file live. */
export function taskStateFolder(taskId: string): string {
  if (stryMutAct_9fa48("121")) {
    {}
  } else {
    stryCov_9fa48("121");
    return stryMutAct_9fa48("122") ? `` : (stryCov_9fa48("122"), `.agent-play/sessions/task-${taskId}`);
  }
}

/** The home folder of an agent on its workspace: the CLI keeps its own session store there, across pods. */
export function agentHomeFolder(agent: string): string {
  if (stryMutAct_9fa48("123")) {
    {}
  } else {
    stryCov_9fa48("123");
    return stryMutAct_9fa48("124") ? `` : (stryCov_9fa48("124"), `.agent-play/home/${agent}`);
  }
}

/** The key of the API-key Secret a direct agent's CLI reads. */
export const API_KEY_SECRET_KEY = stryMutAct_9fa48("125") ? "" : (stryCov_9fa48("125"), 'api-key');

/** The Secret that holds a CLI's API key for direct agents: `claude` reads `claude-api-key`. */
export function cliApiKeySecretName(cli: string): string {
  if (stryMutAct_9fa48("126")) {
    {}
  } else {
    stryCov_9fa48("126");
    return stryMutAct_9fa48("127") ? `` : (stryCov_9fa48("127"), `${cli}-api-key`);
  }
}

/** The keys of a GitHub App Secret a direct agent mounts (`githubAppSecretName`), each a file. */
export const GITHUB_APP_SECRET_KEYS = ['app-id', 'private-key', 'installation-id'] as const;
interface Problem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** The parts of a platform config the direct rules read. */
export interface DirectConfigView {
  readonly execution: ExecutionMode;
  readonly direct: {
    readonly resources: AgentResources;
  };
  readonly agents: Readonly<Record<string, {
    readonly cli: string;
    readonly systemPrompt: string;
    readonly execution?: ExecutionMode;
    readonly resources?: AgentResourcesOverride;
  }>>;
  readonly clis: Readonly<Record<string, {
    readonly executor?: ExecutorName;
  }>>;
  readonly repositories: readonly {
    readonly agentClis: Readonly<Record<string, string>>;
  }[];
}

/**
 * Every direct agent's CLI (its binding and each repository's) must be one direct execution can run, and
 * every direct agent's resources must be schedulable; each problem at the path to change.
 */
export function directExecutionProblems(config: DirectConfigView): Problem[] {
  if (stryMutAct_9fa48("128")) {
    {}
  } else {
    stryCov_9fa48("128");
    const problems: Problem[] = stryMutAct_9fa48("129") ? ["Stryker was here"] : (stryCov_9fa48("129"), []);
    const platformProblem = resourcesProblem(config.direct.resources);
    if (stryMutAct_9fa48("132") ? platformProblem === undefined : stryMutAct_9fa48("131") ? false : stryMutAct_9fa48("130") ? true : (stryCov_9fa48("130", "131", "132"), platformProblem !== undefined)) problems.push(stryMutAct_9fa48("133") ? {} : (stryCov_9fa48("133"), {
      path: stryMutAct_9fa48("134") ? [] : (stryCov_9fa48("134"), [stryMutAct_9fa48("135") ? "" : (stryCov_9fa48("135"), 'direct'), stryMutAct_9fa48("136") ? "" : (stryCov_9fa48("136"), 'resources')]),
      message: platformProblem
    }));
    for (const [name, agent] of Object.entries(config.agents)) {
      if (stryMutAct_9fa48("137")) {
        {}
      } else {
        stryCov_9fa48("137");
        if (stryMutAct_9fa48("140") ? executionOf(agent, config.execution) === 'direct' : stryMutAct_9fa48("139") ? false : stryMutAct_9fa48("138") ? true : (stryCov_9fa48("138", "139", "140"), executionOf(agent, config.execution) !== (stryMutAct_9fa48("141") ? "" : (stryCov_9fa48("141"), 'direct')))) continue;
        const clis = new Set(stryMutAct_9fa48("142") ? [] : (stryCov_9fa48("142"), [agent.cli, ...config.repositories.flatMap(stryMutAct_9fa48("143") ? () => undefined : (stryCov_9fa48("143"), repository => stryMutAct_9fa48("144") ? repository.agentClis[name] && [] : (stryCov_9fa48("144"), repository.agentClis[name] ?? (stryMutAct_9fa48("145") ? ["Stryker was here"] : (stryCov_9fa48("145"), [])))))]));
        for (const cliName of clis) {
          if (stryMutAct_9fa48("146")) {
            {}
          } else {
            stryCov_9fa48("146");
            const cli = config.clis[cliName];
            const refusal = (stryMutAct_9fa48("149") ? cli !== undefined : stryMutAct_9fa48("148") ? false : stryMutAct_9fa48("147") ? true : (stryCov_9fa48("147", "148", "149"), cli === undefined)) ? undefined : directRefusal(cliName, cli);
            if (stryMutAct_9fa48("152") ? refusal === undefined : stryMutAct_9fa48("151") ? false : stryMutAct_9fa48("150") ? true : (stryCov_9fa48("150", "151", "152"), refusal !== undefined)) problems.push(stryMutAct_9fa48("153") ? {} : (stryCov_9fa48("153"), {
              path: stryMutAct_9fa48("154") ? [] : (stryCov_9fa48("154"), [stryMutAct_9fa48("155") ? "" : (stryCov_9fa48("155"), 'agents'), name, stryMutAct_9fa48("156") ? "" : (stryCov_9fa48("156"), 'execution')]),
              message: stryMutAct_9fa48("157") ? `` : (stryCov_9fa48("157"), `runs direct, but ${refusal}; set agents.${name}.execution: coderun`)
            }));
          }
        }
        const promptBytes = new TextEncoder().encode(agent.systemPrompt).length;
        if (stryMutAct_9fa48("161") ? promptBytes <= MAX_DIRECT_SYSTEM_PROMPT_BYTES : stryMutAct_9fa48("160") ? promptBytes >= MAX_DIRECT_SYSTEM_PROMPT_BYTES : stryMutAct_9fa48("159") ? false : stryMutAct_9fa48("158") ? true : (stryCov_9fa48("158", "159", "160", "161"), promptBytes > MAX_DIRECT_SYSTEM_PROMPT_BYTES)) problems.push(stryMutAct_9fa48("162") ? {} : (stryCov_9fa48("162"), {
          path: stryMutAct_9fa48("163") ? [] : (stryCov_9fa48("163"), [stryMutAct_9fa48("164") ? "" : (stryCov_9fa48("164"), 'agents'), name, stryMutAct_9fa48("165") ? "" : (stryCov_9fa48("165"), 'systemPrompt')]),
          message: stryMutAct_9fa48("166") ? `` : (stryCov_9fa48("166"), `is ${promptBytes} bytes; a direct agent's CLI gets it as one argument, at most ${MAX_DIRECT_SYSTEM_PROMPT_BYTES} bytes: shorten it, or set agents.${name}.execution: coderun`)
        }));
        if (stryMutAct_9fa48("169") ? agent.resources === undefined : stryMutAct_9fa48("168") ? false : stryMutAct_9fa48("167") ? true : (stryCov_9fa48("167", "168", "169"), agent.resources !== undefined)) {
          if (stryMutAct_9fa48("170")) {
            {}
          } else {
            stryCov_9fa48("170");
            const problem = resourcesProblem(resourcesOf(config.direct.resources, agent.resources));
            if (stryMutAct_9fa48("173") ? problem === undefined : stryMutAct_9fa48("172") ? false : stryMutAct_9fa48("171") ? true : (stryCov_9fa48("171", "172", "173"), problem !== undefined)) problems.push(stryMutAct_9fa48("174") ? {} : (stryCov_9fa48("174"), {
              path: stryMutAct_9fa48("175") ? [] : (stryCov_9fa48("175"), [stryMutAct_9fa48("176") ? "" : (stryCov_9fa48("176"), 'agents'), name, stryMutAct_9fa48("177") ? "" : (stryCov_9fa48("177"), 'resources')]),
              message: problem
            }));
          }
        }
      }
    }
    return problems;
  }
}