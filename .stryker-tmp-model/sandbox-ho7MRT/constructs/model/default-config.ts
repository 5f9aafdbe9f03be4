/**
 * The embedded default platform: what `agent-play synth` builds when no `agent-play.yaml` exists. Every
 * value here is a default a configuration file can override. Agents and CLIs come from the seeds' registry
 * (seed 004, seed-origin section 4.1).
 *
 * Pure data: no cdk8s, no I/O.
 */
// @ts-nocheck


const IMAGE_VERSION = 'v1.4.2';

/** The container images of the CLIs, pinned by version. */
function cliImage(cli: string): string {
  return `ghcr.io/5dlabs/${cli}:${IMAGE_VERSION}`;
}

/** The built-in CLI registry: each CLI with its pinned image and model settings. */
export const DEFAULT_CLIS = {
  claude: { image: cliImage('claude'), provider: 'anthropic', settings: {} },
  codex: { image: cliImage('codex'), provider: 'openai', settings: { approvalPolicy: 'never' } },
  cursor: { image: cliImage('cursor'), provider: 'anthropic', settings: {} },
  factory: { image: cliImage('factory'), provider: 'openai', settings: {} },
  opencode: { image: cliImage('opencode'), provider: 'xai', settings: {} },
  gemini: { image: cliImage('gemini'), provider: 'google', settings: {} },
};

/** The built-in agent registry (rex, blaze, cleo, tess, cipher, ...): GitHub App, role, CLI and system prompt. */
export const DEFAULT_AGENTS = {
  rex: {
    githubApp: '5DLabs-Rex',
    role: 'implementation',
    cli: 'cursor',
    model: 'gpt-4o',
    maxTokens: 64000,
    temperature: 0.7,
    description: 'Backend implementation',
    systemPrompt:
      'You are Rex, a backend engineer. Implement the task on its feature branch, keep the change small and ' +
      'tested, and open a pull request labelled with the task id when the work is ready for review.',
  },
  blaze: {
    githubApp: '5DLabs-Blaze',
    role: 'implementation',
    cli: 'codex',
    model: 'gpt-4o',
    maxTokens: 64000,
    temperature: 0.6,
    description: 'Frontend implementation',
    systemPrompt:
      'You are Blaze, a frontend engineer. Implement the task on its feature branch with accessible, tested ' +
      'components, and open a pull request labelled with the task id when the work is ready for review.',
  },
  cleo: {
    githubApp: '5DLabs-Cleo',
    role: 'quality',
    cli: 'claude',
    model: 'claude-sonnet-4-5-20250929',
    maxTokens: 2048,
    temperature: 0.3,
    description: 'Code quality',
    systemPrompt:
      'You are Cleo, the quality reviewer. Run the formatters, linters and type checks, fix what they find on ' +
      'the pull request branch, and approve the pull request once it is clean.',
  },
  tess: {
    githubApp: '5DLabs-Tess',
    role: 'testing',
    cli: 'claude',
    model: 'claude-sonnet-4-5-20250929',
    maxTokens: 4096,
    temperature: 0.7,
    description: 'Testing and QA',
    systemPrompt:
      'You are Tess, the tester. Exercise the change end to end, add the missing tests, and review the pull ' +
      'request with APPROVE or REQUEST CHANGES. Never merge.',
  },
  cipher: {
    githubApp: '5DLabs-Cipher',
    role: 'security',
    cli: 'claude',
    model: 'claude-sonnet-4-5-20250929',
    maxTokens: 200000,
    temperature: 0.6,
    description: 'Security review',
    systemPrompt:
      'You are Cipher, the security reviewer. Look for injection, secrets, unsafe dependencies and missing ' +
      'authorization in the change, fix what you can and report the rest on the pull request.',
  },
  morgan: {
    githubApp: '5DLabs-Morgan',
    role: 'docs',
    cli: 'claude',
    model: 'claude-opus-4-1-20250805',
    maxTokens: 8192,
    temperature: 0.8,
    description: 'Project management and documentation',
    systemPrompt:
      'You are Morgan, the project manager. Turn requirements into well-scoped tasks and keep the project ' +
      'documentation true to the code.',
  },
};

/** The repositories of the embedded default platform. */
export const DEFAULT_REPOSITORIES = [{ name: '5dlabs/cto-play-test', service: 'play-test', branch: 'main' }];

/**
 * The default stage machine (seed 000): three agents, each followed by the GitHub event that releases
 * the next one.
 */
export const DEFAULT_STAGES = [
  { name: 'implementation', type: 'agent', agent: 'rex' },
  {
    name: 'waiting-pr-created',
    type: 'gate',
    release: [{ event: 'pull_request', actions: ['opened', 'reopened', 'ready_for_review'] }],
  },
  { name: 'code-quality', type: 'agent', agent: 'cleo' },
  {
    name: 'waiting-ready-for-qa',
    type: 'gate',
    release: [
      { event: 'pull_request_review', actions: ['submitted'], reviewState: 'approved', by: ['cleo'] },
      { event: 'pull_request', actions: ['labeled'], label: 'ready-for-qa', by: ['cleo'] },
    ],
  },
  { name: 'testing', type: 'agent', agent: 'tess' },
  {
    name: 'waiting-pr-merged',
    type: 'gate',
    release: [{ event: 'pull_request', actions: ['closed'], merged: true }],
  },
  { name: 'completed', type: 'end' },
];

/** The whole default configuration, as a file would spell it. */
export const DEFAULT_CONFIG = {
  namespace: 'agents',
  repositories: DEFAULT_REPOSITORIES,
  agents: DEFAULT_AGENTS,
  clis: DEFAULT_CLIS,
  stages: DEFAULT_STAGES,
};
