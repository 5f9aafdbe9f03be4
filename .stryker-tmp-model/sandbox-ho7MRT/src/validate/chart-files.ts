/**
 * What cdk8s names the files of an app's charts, so that `validatePlatform`'s findings name the files the
 * user's `app.synth()` writes (`platform-gate-sensors-c8e1b5f2.k8s.yaml`, or `0003-...` when charts depend
 * on each other), not agent-play's own names. The rules are cdk8s 2.x `App.synth` (lib/app.js: the chart
 * namers and `chartToKube`): one file per chart by default, named `Names.toDnsLabel(chart)` plus the app's
 * extension, numbered in dependency order once any chart depends on another (a nested chart does).
 */
// @ts-nocheck

import { ApiObject, App, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import type { IConstruct } from 'constructs';

/** A chart's objects in the order cdk8s writes them, each only in its closest chart. */
export function chartObjects(chart: Chart): ApiObject[] {
  return new DependencyGraph(chart.node)
    .topology()
    .filter((construct): construct is ApiObject => construct instanceof ApiObject && Chart.of(construct) === chart);
}

/**
 * The dependencies cdk8s adds before it writes (a chart depends on the charts inside it, and on the charts of
 * the constructs its constructs depend on): adding them again at synthesis changes nothing. Returns whether
 * any chart depends on another, which numbers the files.
 */
function chartDependencies(app: IConstruct): boolean {
  let dependant = false;
  const constructs = app.node.findAll();
  for (const parent of constructs.filter((construct): construct is Chart => construct instanceof Chart)) {
    for (const child of parent.node.children.filter((construct) => construct instanceof Chart)) {
      parent.node.addDependency(child);
      dependant = true;
    }
  }
  for (const source of constructs) {
    for (const target of source.node.dependencies) {
      const from = chartOf(source);
      const to = chartOf(target);
      if (from !== undefined && to !== undefined && from !== to) {
        from.node.addDependency(to);
        dependant = true;
      }
    }
  }
  return dependant;
}

function chartOf(construct: IConstruct): Chart | undefined {
  try {
    return Chart.of(construct);
  } catch {
    return undefined;
  }
}

/** The file each chart of the app is written to, as the app's `synth()` names it. */
export function chartFileNames(app: App): Map<Chart, string> {
  const numbered = chartDependencies(app);
  const charts = new DependencyGraph(app.node).topology().filter((construct): construct is Chart => construct instanceof Chart);
  const extension = app.outputFileExtension;
  const files = new Map<Chart, string>();
  charts.forEach((chart, index) => {
    const name = `${numbered ? `${String(index).padStart(4, '0')}-` : ''}${Names.toDnsLabel(chart)}`;
    switch (app.yamlOutputType) {
      case YamlOutputType.FILE_PER_APP:
        files.set(chart, `app${extension}`);
        break;
      case YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE:
        files.set(chart, `${name}/`);
        break;
      default:
        files.set(chart, `${name}${extension}`);
    }
  });
  return files;
}
