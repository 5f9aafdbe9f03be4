/**
 * The Argo tags our resource manifests use, evaluated the way the controller evaluates them
 * (argo-workflows `util/template/expression_template.go`: a string result goes in without its quotes, any
 * other result as its JSON; expr-lang's `int` and `float` for asInt and asFloat refuse text that is not a
 * number), for the subset we emit: `{{=toJson(E)}}`, `{{=asInt(E)}}`, `{{=asInt(E) + 1}}`, `{{=asFloat(E)}}`,
 * `{{=E == 'true'}}`, `{{=fromJSON(E)}}`, where E is a reference or references and quoted text joined by
 * `+`, and plain `{{ref}}` substitution. `values` is keyed by the reference, e.g. `workflow.parameters['task-id']`
 * or `workflow.parameters.task-id` (the same), or `workflow.uid`.
 */
// @ts-nocheck

export function renderArgoTags(text: string, values: Readonly<Record<string, string>>): string {
  // `a['b-c']` and `a.b-c` name the same value: keys and references are compared in the dotted form.
  const dotted = (reference: string): string => reference.replace(/\['([^']+)'\]/g, '.$1');
  const byReference = new Map(Object.entries(values).map(([key, value]) => [dotted(key), value]));
  const valueOf = (reference: string): string => {
    const value = byReference.get(dotted(reference));
    if (value === undefined) throw new Error(`no value for ${reference}`);
    return value;
  };
  /** A reference, quoted text, or a sum of them (expr-lang's string concatenation). */
  const textOf = (expression: string): string =>
    expression
      .split(/\s\+\s/)
      .map((term) => {
        const quoted = /^'([^']*)'$/.exec(term.trim());
        return quoted ? quoted[1] : valueOf(term.trim());
      })
      .join('');
  const asInt = (reference: string): number => {
    const value = valueOf(reference);
    if (!/^[-+]?\d+$/.test(value)) throw new Error(`asInt: "${value}" is not a whole number`);
    return Number(value);
  };
  const asFloat = (reference: string): number => {
    const value = valueOf(reference);
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value)) throw new Error(`asFloat: "${value}" is not a number`);
    return Number(value);
  };
  return text.replace(/\{\{(=?)([^}]+)\}\}/g, (_tag, isExpression: string, body: string) => {
    if (!isExpression) return valueOf(body);
    let match: RegExpExecArray | null;
    if ((match = /^toJson\((.+)\)$/.exec(body))) return JSON.stringify(textOf(match[1]));
    if ((match = /^fromJSON\((.+)\)$/.exec(body))) return JSON.stringify(JSON.parse(textOf(match[1])));
    if ((match = /^asInt\((.+)\) \+ 1$/.exec(body))) return String(asInt(match[1]) + 1);
    if ((match = /^asInt\((.+)\)$/.exec(body))) return String(asInt(match[1]));
    if ((match = /^asFloat\((.+)\)$/.exec(body))) return String(asFloat(match[1]));
    if ((match = /^(.+) == 'true'$/.exec(body))) return String(valueOf(match[1]) === 'true');
    throw new Error(`unexpected Argo expression ${body}`);
  });
}
