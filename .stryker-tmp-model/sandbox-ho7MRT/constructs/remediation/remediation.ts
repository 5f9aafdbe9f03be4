/**
 * Remediation rounds: which events send a task back to its implementation stage, how many times, and
 * which work a new push by the implementation agent makes stale. The config side (`remediation:` and a
 * gate's `remediate:`), and the plan every construct, the simulator and the graph read, derived once.
 *
 * A DAG cannot loop: a remediation ends the play and recreates it at the implementation stage with the
 * next round (docs/remediation.md).
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
import type { AgentConfig, ReleaseConfig } from '../model/config-shapes';
import { Releases } from '../model/releases';
export { NEEDS_FIXES_LABEL } from '../model/releases';
import { gateConditionProblems, type StageDefinition } from '../model/stage-rules';
import { ProblemsError } from '../model/problems-error';
import { formatPath } from '../model/format-path';

/** The roles whose agents send a task back by default (from the gate after their stage). */
export const REVIEWING_ROLES: readonly string[] = stryMutAct_9fa48("321") ? [] : (stryCov_9fa48("321"), [stryMutAct_9fa48("322") ? "" : (stryCov_9fa48("322"), 'quality'), stryMutAct_9fa48("323") ? "" : (stryCov_9fa48("323"), 'testing')]);
/** The role of the agents a task goes back to. */
export const IMPLEMENTATION_ROLE = stryMutAct_9fa48("324") ? "" : (stryCov_9fa48("324"), 'implementation');
export { DEFAULT_MAX_ROUNDS, MAX_ROUNDS_LIMIT, type RemediationConfig } from '../model/config-shapes';
import { RemediationSchema, type RemediationConfig } from '../model/config-shapes';

/** The conditions a reviewing agent sends a task back with: a review requesting changes, or the `needs-fixes` label. */
export function defaultRemediateConditions(by: readonly string[]): ReleaseConfig[] {
  if (stryMutAct_9fa48("325")) {
    {}
  } else {
    stryCov_9fa48("325");
    return stryMutAct_9fa48("326") ? [] : (stryCov_9fa48("326"), [Releases.changesRequested(stryMutAct_9fa48("327") ? {} : (stryCov_9fa48("327"), {
      by
    })), Releases.needsFixes(stryMutAct_9fa48("328") ? {} : (stryCov_9fa48("328"), {
      by
    }))]);
  }
}

/** One way back: the gate whose `remediate:` holds the conditions, and the conditions. */
export interface RemediationRoute {
  readonly gate: string;
  readonly conditions: readonly ReleaseConfig[];
}

/** What the remediation Sensors, the remediator, the simulator and the graph need, from one derivation. */
export interface RemediationPlan {
  readonly maxRounds: number;
  /** The stage a task goes back to: the first agent stage whose agents have role `implementation`. */
  readonly implementationStage: string;
  /** The implementation stage's agents: their bots' pushes make quality and testing work stale. */
  readonly implementationAgents: readonly string[];
  /** The gates that send a task back, each with its conditions, in stage order. */
  readonly routes: readonly RemediationRoute[];
  /** Where a remediation event counts: the stages after the implementation stage, the end stage excluded. */
  readonly remediableStages: readonly string[];
  /** The first gate after the implementation stage: it waits for the pull request, which stays open across rounds. */
  readonly pullRequestGate?: string;
  /** Where work made stale by a push runs again: the first stage after the pull request gate. */
  readonly staleRestartStage?: string;
  /** The stages a push makes stale (from `staleRestartStage` to the end stage, excluded); empty when disabled. */
  readonly staleStages: readonly string[];
  /** The gates whose release records do not hold in a new round (all but the pull request gate). */
  readonly roundGates: readonly string[];
}
function agentsOfStage(stage: StageDefinition): readonly string[] {
  if (stryMutAct_9fa48("329")) {
    {}
  } else {
    stryCov_9fa48("329");
    if (stryMutAct_9fa48("332") ? stage.type === 'agent' : stryMutAct_9fa48("331") ? false : stryMutAct_9fa48("330") ? true : (stryCov_9fa48("330", "331", "332"), stage.type !== (stryMutAct_9fa48("333") ? "" : (stryCov_9fa48("333"), 'agent')))) return stryMutAct_9fa48("334") ? ["Stryker was here"] : (stryCov_9fa48("334"), []);
    return stryMutAct_9fa48("335") ? stage.agents && (stage.agent === undefined ? [] : [stage.agent]) : (stryCov_9fa48("335"), stage.agents ?? ((stryMutAct_9fa48("338") ? stage.agent !== undefined : stryMutAct_9fa48("337") ? false : stryMutAct_9fa48("336") ? true : (stryCov_9fa48("336", "337", "338"), stage.agent === undefined)) ? stryMutAct_9fa48("339") ? ["Stryker was here"] : (stryCov_9fa48("339"), []) : stryMutAct_9fa48("340") ? [] : (stryCov_9fa48("340"), [stage.agent])));
  }
}
function hasRole(stage: StageDefinition, agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>, roles: readonly string[]): boolean {
  if (stryMutAct_9fa48("341")) {
    {}
  } else {
    stryCov_9fa48("341");
    const names = agentsOfStage(stage);
    return stryMutAct_9fa48("344") ? names.length > 0 || names.every(name => roles.includes(agents[name]?.role ?? '')) : stryMutAct_9fa48("343") ? false : stryMutAct_9fa48("342") ? true : (stryCov_9fa48("342", "343", "344"), (stryMutAct_9fa48("347") ? names.length <= 0 : stryMutAct_9fa48("346") ? names.length >= 0 : stryMutAct_9fa48("345") ? true : (stryCov_9fa48("345", "346", "347"), names.length > 0)) && (stryMutAct_9fa48("348") ? names.some(name => roles.includes(agents[name]?.role ?? '')) : (stryCov_9fa48("348"), names.every(stryMutAct_9fa48("349") ? () => undefined : (stryCov_9fa48("349"), name => roles.includes(stryMutAct_9fa48("350") ? agents[name]?.role && '' : (stryCov_9fa48("350"), (stryMutAct_9fa48("351") ? agents[name].role : (stryCov_9fa48("351"), agents[name]?.role)) ?? (stryMutAct_9fa48("352") ? "Stryker was here!" : (stryCov_9fa48("352"), '')))))))));
  }
}

/** The index of the implementation stage, or -1. */
function implementationIndex(stages: readonly StageDefinition[], agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>): number {
  if (stryMutAct_9fa48("353")) {
    {}
  } else {
    stryCov_9fa48("353");
    return stages.findIndex(stryMutAct_9fa48("354") ? () => undefined : (stryCov_9fa48("354"), stage => hasRole(stage, agents, stryMutAct_9fa48("355") ? [] : (stryCov_9fa48("355"), [IMPLEMENTATION_ROLE]))));
  }
}

/**
 * The conditions of a gate: its `remediate:` as written, else the default one, which a gate gets when it
 * follows an agent stage of reviewing agents (quality, testing) that itself comes after the implementation
 * stage: requested changes, or `needs-fixes`, by those agents.
 */
export function remediateConditions(stages: readonly StageDefinition[], agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>, gateIndex: number): readonly ReleaseConfig[] {
  if (stryMutAct_9fa48("356")) {
    {}
  } else {
    stryCov_9fa48("356");
    const gate = stages[gateIndex];
    if (stryMutAct_9fa48("359") ? gate?.type === 'gate' : stryMutAct_9fa48("358") ? false : stryMutAct_9fa48("357") ? true : (stryCov_9fa48("357", "358", "359"), (stryMutAct_9fa48("360") ? gate.type : (stryCov_9fa48("360"), gate?.type)) !== (stryMutAct_9fa48("361") ? "" : (stryCov_9fa48("361"), 'gate')))) return stryMutAct_9fa48("362") ? ["Stryker was here"] : (stryCov_9fa48("362"), []);
    if (stryMutAct_9fa48("365") ? gate.remediate === undefined : stryMutAct_9fa48("364") ? false : stryMutAct_9fa48("363") ? true : (stryCov_9fa48("363", "364", "365"), gate.remediate !== undefined)) return gate.remediate;
    const implementation = implementationIndex(stages, agents);
    const before = stages[stryMutAct_9fa48("366") ? gateIndex + 1 : (stryCov_9fa48("366"), gateIndex - 1)];
    if (stryMutAct_9fa48("369") ? (implementation < 0 || gateIndex - 1 <= implementation) && before === undefined : stryMutAct_9fa48("368") ? false : stryMutAct_9fa48("367") ? true : (stryCov_9fa48("367", "368", "369"), (stryMutAct_9fa48("371") ? implementation < 0 && gateIndex - 1 <= implementation : stryMutAct_9fa48("370") ? false : (stryCov_9fa48("370", "371"), (stryMutAct_9fa48("374") ? implementation >= 0 : stryMutAct_9fa48("373") ? implementation <= 0 : stryMutAct_9fa48("372") ? false : (stryCov_9fa48("372", "373", "374"), implementation < 0)) || (stryMutAct_9fa48("377") ? gateIndex - 1 > implementation : stryMutAct_9fa48("376") ? gateIndex - 1 < implementation : stryMutAct_9fa48("375") ? false : (stryCov_9fa48("375", "376", "377"), (stryMutAct_9fa48("378") ? gateIndex + 1 : (stryCov_9fa48("378"), gateIndex - 1)) <= implementation)))) || (stryMutAct_9fa48("380") ? before !== undefined : stryMutAct_9fa48("379") ? false : (stryCov_9fa48("379", "380"), before === undefined)))) return stryMutAct_9fa48("381") ? ["Stryker was here"] : (stryCov_9fa48("381"), []);
    return hasRole(before, agents, REVIEWING_ROLES) ? defaultRemediateConditions(agentsOfStage(before)) : stryMutAct_9fa48("382") ? ["Stryker was here"] : (stryCov_9fa48("382"), []);
  }
}

/** A broken remediation rule, at the path of the field to change. */
export interface RemediationProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** A gate that sends tasks back needs an implementation stage before it. */
export function remediationProblems(stages: readonly StageDefinition[], agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>): RemediationProblem[] {
  if (stryMutAct_9fa48("383")) {
    {}
  } else {
    stryCov_9fa48("383");
    const implementation = implementationIndex(stages, agents);
    const problems: RemediationProblem[] = stryMutAct_9fa48("384") ? ["Stryker was here"] : (stryCov_9fa48("384"), []);
    stages.forEach((stage, index) => {
      if (stryMutAct_9fa48("385")) {
        {}
      } else {
        stryCov_9fa48("385");
        if (stryMutAct_9fa48("388") ? stage.type === 'gate' : stryMutAct_9fa48("387") ? false : stryMutAct_9fa48("386") ? true : (stryCov_9fa48("386", "387", "388"), stage.type !== (stryMutAct_9fa48("389") ? "" : (stryCov_9fa48("389"), 'gate')))) return;
        (stryMutAct_9fa48("390") ? stage.remediate && [] : (stryCov_9fa48("390"), stage.remediate ?? (stryMutAct_9fa48("391") ? ["Stryker was here"] : (stryCov_9fa48("391"), [])))).forEach((condition, conditionIndex) => {
          if (stryMutAct_9fa48("392")) {
            {}
          } else {
            stryCov_9fa48("392");
            problems.push(...gateConditionProblems(condition, stryMutAct_9fa48("393") ? [] : (stryCov_9fa48("393"), [stryMutAct_9fa48("394") ? "" : (stryCov_9fa48("394"), 'stages'), index, stryMutAct_9fa48("395") ? "" : (stryCov_9fa48("395"), 'remediate'), conditionIndex]), Object.keys(agents)));
          }
        });
        if (stryMutAct_9fa48("398") ? remediateConditions(stages, agents, index).length !== 0 : stryMutAct_9fa48("397") ? false : stryMutAct_9fa48("396") ? true : (stryCov_9fa48("396", "397", "398"), remediateConditions(stages, agents, index).length === 0)) return;
        if (stryMutAct_9fa48("402") ? implementation >= 0 : stryMutAct_9fa48("401") ? implementation <= 0 : stryMutAct_9fa48("400") ? false : stryMutAct_9fa48("399") ? true : (stryCov_9fa48("399", "400", "401", "402"), implementation < 0)) problems.push(stryMutAct_9fa48("403") ? {} : (stryCov_9fa48("403"), {
          path: stryMutAct_9fa48("404") ? [] : (stryCov_9fa48("404"), [stryMutAct_9fa48("405") ? "" : (stryCov_9fa48("405"), 'stages'), index, stryMutAct_9fa48("406") ? "" : (stryCov_9fa48("406"), 'remediate')]),
          message: stryMutAct_9fa48("407") ? `` : (stryCov_9fa48("407"), `gate "${stage.name}" sends tasks back, but no agent stage has implementation agents to send them to: add one, or remove remediate`)
        }));else if (stryMutAct_9fa48("411") ? implementation <= index : stryMutAct_9fa48("410") ? implementation >= index : stryMutAct_9fa48("409") ? false : stryMutAct_9fa48("408") ? true : (stryCov_9fa48("408", "409", "410", "411"), implementation > index)) problems.push(stryMutAct_9fa48("412") ? {} : (stryCov_9fa48("412"), {
          path: stryMutAct_9fa48("413") ? [] : (stryCov_9fa48("413"), [stryMutAct_9fa48("414") ? "" : (stryCov_9fa48("414"), 'stages'), index, stryMutAct_9fa48("415") ? "" : (stryCov_9fa48("415"), 'remediate')]),
          message: stryMutAct_9fa48("416") ? `` : (stryCov_9fa48("416"), `gate "${stage.name}" sends tasks back to "${stages[implementation].name}", which comes after it: remediate only from gates after the implementation stage`)
        }));
      }
    });
    return problems;
  }
}

/**
 * The remediation plan of a stage list, or undefined when no gate sends a task back.
 *
 * @throws ProblemsError when a gate sends tasks back and no implementation stage comes before it, or names
 * an unknown agent, one line per problem at its path
 */
export function remediationPlan(stages: readonly StageDefinition[], agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>, remediation: RemediationConfig = RemediationSchema.parse({})): RemediationPlan | undefined {
  if (stryMutAct_9fa48("417")) {
    {}
  } else {
    stryCov_9fa48("417");
    const problems = remediationProblems(stages, agents);
    if (stryMutAct_9fa48("421") ? problems.length <= 0 : stryMutAct_9fa48("420") ? problems.length >= 0 : stryMutAct_9fa48("419") ? false : stryMutAct_9fa48("418") ? true : (stryCov_9fa48("418", "419", "420", "421"), problems.length > 0)) throw new ProblemsError(problems.map(stryMutAct_9fa48("422") ? () => undefined : (stryCov_9fa48("422"), problem => stryMutAct_9fa48("423") ? `` : (stryCov_9fa48("423"), `${formatPath(problem.path)}: ${problem.message}`))));
    const routes = stryMutAct_9fa48("424") ? stages.map((stage, index) => ({
      gate: stage.name,
      conditions: remediateConditions(stages, agents, index)
    })) : (stryCov_9fa48("424"), stages.map(stryMutAct_9fa48("425") ? () => undefined : (stryCov_9fa48("425"), (stage, index) => stryMutAct_9fa48("426") ? {} : (stryCov_9fa48("426"), {
      gate: stage.name,
      conditions: remediateConditions(stages, agents, index)
    }))).filter(stryMutAct_9fa48("427") ? () => undefined : (stryCov_9fa48("427"), route => stryMutAct_9fa48("431") ? route.conditions.length <= 0 : stryMutAct_9fa48("430") ? route.conditions.length >= 0 : stryMutAct_9fa48("429") ? false : stryMutAct_9fa48("428") ? true : (stryCov_9fa48("428", "429", "430", "431"), route.conditions.length > 0))));
    if (stryMutAct_9fa48("434") ? routes.length !== 0 : stryMutAct_9fa48("433") ? false : stryMutAct_9fa48("432") ? true : (stryCov_9fa48("432", "433", "434"), routes.length === 0)) return undefined;
    const implementation = implementationIndex(stages, agents);
    const after = stryMutAct_9fa48("435") ? stages : (stryCov_9fa48("435"), stages.slice(stryMutAct_9fa48("436") ? implementation - 1 : (stryCov_9fa48("436"), implementation + 1), stryMutAct_9fa48("437") ? +1 : (stryCov_9fa48("437"), -1)));
    const pullRequestGate = stryMutAct_9fa48("438") ? after.find(stage => stage.type === 'gate').name : (stryCov_9fa48("438"), after.find(stryMutAct_9fa48("439") ? () => undefined : (stryCov_9fa48("439"), stage => stryMutAct_9fa48("442") ? stage.type !== 'gate' : stryMutAct_9fa48("441") ? false : stryMutAct_9fa48("440") ? true : (stryCov_9fa48("440", "441", "442"), stage.type === (stryMutAct_9fa48("443") ? "" : (stryCov_9fa48("443"), 'gate')))))?.name);
    const gateIndex = (stryMutAct_9fa48("446") ? pullRequestGate !== undefined : stryMutAct_9fa48("445") ? false : stryMutAct_9fa48("444") ? true : (stryCov_9fa48("444", "445", "446"), pullRequestGate === undefined)) ? stryMutAct_9fa48("447") ? +1 : (stryCov_9fa48("447"), -1) : stages.findIndex(stryMutAct_9fa48("448") ? () => undefined : (stryCov_9fa48("448"), stage => stryMutAct_9fa48("451") ? stage.name !== pullRequestGate : stryMutAct_9fa48("450") ? false : stryMutAct_9fa48("449") ? true : (stryCov_9fa48("449", "450", "451"), stage.name === pullRequestGate)));
    const staleFrom = (stryMutAct_9fa48("455") ? gateIndex >= 0 : stryMutAct_9fa48("454") ? gateIndex <= 0 : stryMutAct_9fa48("453") ? false : stryMutAct_9fa48("452") ? true : (stryCov_9fa48("452", "453", "454", "455"), gateIndex < 0)) ? stryMutAct_9fa48("456") ? ["Stryker was here"] : (stryCov_9fa48("456"), []) : stryMutAct_9fa48("457") ? stages : (stryCov_9fa48("457"), stages.slice(stryMutAct_9fa48("458") ? gateIndex - 1 : (stryCov_9fa48("458"), gateIndex + 1), stryMutAct_9fa48("459") ? +1 : (stryCov_9fa48("459"), -1)));
    const staleRestartStage = remediation.cancelStaleWork ? stryMutAct_9fa48("460") ? staleFrom[0].name : (stryCov_9fa48("460"), staleFrom[0]?.name) : undefined;
    return stryMutAct_9fa48("461") ? {} : (stryCov_9fa48("461"), {
      maxRounds: remediation.maxRounds,
      implementationStage: stages[implementation].name,
      implementationAgents: agentsOfStage(stages[implementation]),
      routes,
      remediableStages: after.map(stryMutAct_9fa48("462") ? () => undefined : (stryCov_9fa48("462"), stage => stage.name)),
      ...((stryMutAct_9fa48("465") ? pullRequestGate !== undefined : stryMutAct_9fa48("464") ? false : stryMutAct_9fa48("463") ? true : (stryCov_9fa48("463", "464", "465"), pullRequestGate === undefined)) ? {} : stryMutAct_9fa48("466") ? {} : (stryCov_9fa48("466"), {
        pullRequestGate
      })),
      ...((stryMutAct_9fa48("469") ? staleRestartStage !== undefined : stryMutAct_9fa48("468") ? false : stryMutAct_9fa48("467") ? true : (stryCov_9fa48("467", "468", "469"), staleRestartStage === undefined)) ? {} : stryMutAct_9fa48("470") ? {} : (stryCov_9fa48("470"), {
        staleRestartStage
      })),
      staleStages: (stryMutAct_9fa48("473") ? staleRestartStage !== undefined : stryMutAct_9fa48("472") ? false : stryMutAct_9fa48("471") ? true : (stryCov_9fa48("471", "472", "473"), staleRestartStage === undefined)) ? stryMutAct_9fa48("474") ? ["Stryker was here"] : (stryCov_9fa48("474"), []) : staleFrom.map(stryMutAct_9fa48("475") ? () => undefined : (stryCov_9fa48("475"), stage => stage.name)),
      roundGates: stryMutAct_9fa48("476") ? stages.map(stage => stage.name) : (stryCov_9fa48("476"), stages.filter(stryMutAct_9fa48("477") ? () => undefined : (stryCov_9fa48("477"), stage => stryMutAct_9fa48("480") ? stage.type === 'gate' || stage.name !== pullRequestGate : stryMutAct_9fa48("479") ? false : stryMutAct_9fa48("478") ? true : (stryCov_9fa48("478", "479", "480"), (stryMutAct_9fa48("482") ? stage.type !== 'gate' : stryMutAct_9fa48("481") ? true : (stryCov_9fa48("481", "482"), stage.type === (stryMutAct_9fa48("483") ? "" : (stryCov_9fa48("483"), 'gate')))) && (stryMutAct_9fa48("485") ? stage.name === pullRequestGate : stryMutAct_9fa48("484") ? true : (stryCov_9fa48("484", "485"), stage.name !== pullRequestGate))))).map(stryMutAct_9fa48("486") ? () => undefined : (stryCov_9fa48("486"), stage => stage.name)))
    });
  }
}
export { roundsExhaustedReason } from './remediator-contract';