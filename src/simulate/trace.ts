import type { SimulationReport } from './simulate';

/** The report as people read it: one block per step, then where every play ended. */
export function formatTrace(report: SimulationReport): string {
  const lines: string[] = [];
  for (const step of report.steps) {
    lines.push(`step ${step.index}:`);
    for (const sensor of step.sensors) lines.push(`  sensor ${sensor} fired`);
    for (const gate of step.recorded) lines.push(`  recorded ${gate.gate} for task ${gate.task} of ${gate.repository}`);
    for (const gate of step.resumed) lines.push(`  resumed ${gate.gate} of task ${gate.task} of ${gate.repository}`);
    for (const done of step.remediated ?? [])
      lines.push(
        done.outcome === 'exhausted'
          ? `  failed task ${done.task} of ${done.repository}: ${done.reason}`
          : done.outcome === 'refused'
            ? `  stopped task ${done.task} of ${done.repository}; its successor at ${done.stage} was refused`
            : `  ${done.outcome === 'next-round' ? 'sent back' : 're-ran'} task ${done.task} of ${done.repository}: round ${done.round} at ${done.stage}`,
      );
    for (const note of step.notes) lines.push(`  ${note}`);
    if (step.ignored !== undefined && step.notes.length === 0) lines.push(`  ignored: ${step.ignored}`);
  }
  lines.push('plays:');
  for (const play of report.plays)
    lines.push(
      `  ${play.repository} task ${play.task}: ${play.stage}${play.round ? `, round ${play.round}` : ''}${play.status ? ` (${play.status}${play.reason ? `: ${play.reason}` : ''})` : ''}`,
    );
  if (report.coderuns.length > 0) {
    lines.push('coderuns:');
    for (const run of report.coderuns)
      lines.push(`  task ${run.task} ${run.stage} ${run.agent} contextVersion ${run.contextVersion}: ${run.phase}`);
  }
  if (report.pods.length > 0) {
    lines.push('direct agent pods (no CodeRuns):');
    for (const pod of report.pods)
      lines.push(
        `  task ${pod.task} ${pod.stage} ${pod.agent} runs ${pod.cli}, round ${pod.round} attempt ${pod.attempt}, session ${pod.session}: ${pod.phase}`,
      );
  }
  for (const project of report.projects) {
    lines.push(
      `project ${project.name}: ${project.phase}, ${project.chunksCompleted} of ${project.chunks.length} chunks and ${project.tasksCompleted} tasks completed${project.reason ? ` (${project.reason})` : ''}`,
    );
    for (const chunk of project.chunks)
      lines.push(
        `  ${chunk.chunk}: ${chunk.phase}, ${chunk.tasksCompleted} of ${chunk.tasks} tasks completed, ${chunk.watcherPods} watcher pod(s)`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The report as `--json` prints it: the issue's shape, without the trace notes; `projects` only when one was submitted. */
export function reportJson(report: SimulationReport): string {
  const steps = report.steps.map(({ notes: _notes, ...step }) => step);
  const projects = report.projects.length > 0 ? { projects: report.projects } : {};
  return `${JSON.stringify({ plays: report.plays, steps, coderuns: report.coderuns, mostLiveCodeRuns: report.mostLiveCodeRuns, pods: report.pods, ...projects })}\n`;
}
