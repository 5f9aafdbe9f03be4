// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { ConfigError, type ConfigInputs, resolveConfig } from '../constructs/model/resolve-config';
import type { LooseConfigInputs } from './support/synth';
import { DEFAULT_STAGES } from '../constructs/model/default-config';

function problemsOf(inputs: LooseConfigInputs): readonly string[] {
  try {
    resolveConfig(inputs as ConfigInputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

describe('the embedded default', () => {
  const config = resolveConfig();

  it('needs no file', () => {
    expect(config.namespace).toBe('agents');
    expect(config.repositories).toHaveLength(1);
    expect(config.repositories[0].branch).toBe('main');
    expect(config.workspace.size).toBe('10Gi');
  });

  it('holds the seeds agent registry with GitHub Apps and CLI bindings', () => {
    expect(Object.keys(config.agents).sort()).toEqual(['blaze', 'cipher', 'cleo', 'morgan', 'rex', 'tess']);
    expect(config.agents.cleo.githubApp).toBe('5DLabs-Cleo');
    expect(config.agents.rex.role).toBe('implementation');
    expect(config.agents.blaze.role).toBe('implementation');
    for (const agent of Object.values(config.agents)) expect(Object.keys(config.clis)).toContain(agent.cli);
  });

  it('holds the CLIs, each pinned by version', () => {
    expect(Object.keys(config.clis)).toEqual(expect.arrayContaining(['claude', 'codex', 'cursor', 'factory', 'opencode', 'gemini']));
    for (const cli of Object.values(config.clis)) expect(cli.image).not.toMatch(/:latest$/);
  });

  it('runs the default stage flow', () => {
    expect(config.stages.map((stage) => stage.name)).toEqual([
      'implementation',
      'waiting-pr-created',
      'code-quality',
      'waiting-ready-for-qa',
      'testing',
      'waiting-pr-merged',
      'completed',
    ]);
  });
});

describe('a config file', () => {
  it('changes one field of one agent and keeps the rest', () => {
    const config = resolveConfig({ file: { agents: { cleo: { cli: 'codex' } } } });
    expect(config.agents.cleo.cli).toBe('codex');
    expect(config.agents.cleo.githubApp).toBe('5DLabs-Cleo');
  });

  it('adds a new agent and a new CLI', () => {
    const config = resolveConfig({
      file: {
        clis: { aider: { image: 'ghcr.io/acme/aider:0.9.1' } },
        agents: {
          nova: {
            githubApp: 'Acme-Nova',
            role: 'review',
            cli: 'aider',
            model: 'm1',
            maxTokens: 1000,
            temperature: 0.2,
            systemPrompt: 'Review.',
          },
        },
      },
    });
    expect(config.agents.nova.cli).toBe('aider');
    expect(config.clis.aider.settings).toEqual({});
  });

  it('defaults workingDirectory to nothing and lets the constructs use the service', () => {
    const config = resolveConfig({ file: { repositories: [{ name: 'octo-org/payments', service: 'payments' }] } });
    expect(config.repositories[0]).toMatchObject({ name: 'octo-org/payments', branch: 'main' });
    expect(config.repositories[0].workingDirectory).toBeUndefined();
  });
});

describe('bad configuration', () => {
  it('names the path and the known values for an unknown CLI', () => {
    expect(problemsOf({ file: { agents: { cleo: { cli: 'cursr' } } } })).toEqual([
      'agents.cleo.cli: unknown CLI "cursr"; did you mean cursor? known: claude, codex, cursor, factory, opencode, gemini',
    ]);
  });

  it('says which built-in agent a misspelt one meant, and reports the other problems in the same run', () => {
    expect(problemsOf({ file: { agents: { rexx: { model: 'gpt-5' }, cleo: { cli: 'cursr' } } } })).toEqual([
      'agents.cleo.cli: unknown CLI "cursr"; did you mean cursor? known: claude, codex, cursor, factory, opencode, gemini',
      'agents.rexx: unknown agent rexx; did you mean rex?',
    ]);
    expect(problemsOf({ file: { clis: { codx: { settings: {} } } } })).toEqual(['clis.codx: unknown CLI codx; did you mean codex?']);
    // A new agent far from every built-in name is a new agent: its missing fields are what to fix.
    expect(problemsOf({ file: { agents: { probe: { model: 'gpt-5' } } } })).toContain(
      'agents.probe.githubApp: Invalid input: expected string, received undefined',
    );
  });

  it('reports every problem, one line each', () => {
    const problems = problemsOf({
      file: { namespace: 'Bad_NS', workspace: { size: 'ten' }, repositories: [{ name: 'no-slash', service: 'svc' }] },
    });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/^namespace: /m);
    expect(problems.join('\n')).toMatch(/^workspace\.size: expected a size such as 10Gi$/m);
    expect(problems.join('\n')).toMatch(/^repositories\[0\]\.name: "no-slash" is not a GitHub repository/m);
    for (const problem of problems) expect(problem).not.toContain('\n');
  });

  it('refuses unknown settings instead of ignoring a typo', () => {
    expect(problemsOf({ file: { namespce: 'x' } })).toEqual(['config: unknown setting "namespce"']);
  });

  it('refuses an image tagged latest', () => {
    expect(problemsOf({ file: { clis: { claude: { image: 'ghcr.io/5dlabs/claude:latest' } } } })[0]).toMatch(
      /^clis\.claude\.image: .*latest/,
    );
  });

  it('refuses stage machines that cannot run', () => {
    const stages = [
      { name: 'build', type: 'agent', agent: 'zed' },
      { name: 'build', type: 'gate', release: [{ event: 'pull_request', actions: ['opened'], by: ['nobody'] }] },
      { name: 'done', type: 'end' },
    ];
    const problems = problemsOf({ file: { stages } });
    expect(problems).toContain('stages[0].agent: unknown agent "zed"; known: rex, blaze, cleo, tess, cipher, morgan');
    expect(problems).toContain(
      'stages[1].name: stage "build" is defined twice (also stage 1); a play runs each stage once, in order, so going back to a stage would be a cycle: give each stage its own name',
    );
    expect(problems).toContain('stages[1].release[0].by[0]: unknown agent "nobody"; known: rex, blaze, cleo, tess, cipher, morgan');
  });

  it('refuses a gate without a releasing event and a stage list without an end', () => {
    const problems = problemsOf({
      file: {
        stages: [
          { name: 'a', type: 'agent', agent: 'rex' },
          { name: 'wait', type: 'gate', release: [] },
        ],
      },
    });
    expect(problems).toContain('stages[1].release: a gate needs at least one releasing event');
    const noEnd = problemsOf({ file: { stages: [{ name: 'a', type: 'agent', agent: 'rex' }] } });
    expect(noEnd[0]).toMatch(/^stages\[0\]: the last stage must be the end stage/);
  });

  it('refuses an unknown stage type with the known ones', () => {
    expect(problemsOf({ file: { stages: [{ name: 'a', type: 'robot' }] } })[0]).toBe(
      'stages[0].type: unknown stage type: expected type agent, gate or end',
    );
  });

  it('refuses a top level that is not a mapping', () => {
    expect(problemsOf({ file: ['x'], fileName: 'agent-play.yaml' })).toEqual([
      'agent-play.yaml: expected a mapping of settings at the top level',
    ]);
  });
});

describe('environment overrides (seed 004)', () => {
  it('rebinds an agent to another CLI', () => {
    const config = resolveConfig({ env: { AGENT_PLAY_CLI_REX: 'codex', UNRELATED: 'x' } });
    expect(config.agents.rex.cli).toBe('codex');
  });

  it('wins over the file', () => {
    const config = resolveConfig({ file: { agents: { rex: { cli: 'claude' } } }, env: { AGENT_PLAY_CLI_REX: 'gemini' } });
    expect(config.agents.rex.cli).toBe('gemini');
  });

  it('says which variable set a bad value', () => {
    expect(problemsOf({ env: { AGENT_PLAY_CLI_TESS: 'cursr' } })).toEqual([
      'agents.tess.cli: unknown CLI "cursr"; did you mean cursor? known: claude, codex, cursor, factory, opencode, gemini (set by AGENT_PLAY_CLI_TESS)',
    ]);
  });

  it('refuses a variable for an agent that does not exist', () => {
    expect(problemsOf({ env: { AGENT_PLAY_CLI_NOBODY: 'codex' } })[0]).toMatch(/^AGENT_PLAY_CLI_NOBODY: no agent "nobody"/);
  });

  it('does not change the defaults it starts from', () => {
    resolveConfig({ env: { AGENT_PLAY_CLI_REX: 'codex' } });
    expect(resolveConfig().agents.rex.cli).toBe('cursor');
    expect(DEFAULT_STAGES[0]).toMatchObject({ agent: 'rex' });
  });
});
