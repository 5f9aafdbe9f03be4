/**
 * The Argo tags our resource manifests use, evaluated the way the controller evaluates them
 * (argo-workflows `util/template/expression_template.go`: the expression's result is JSON-encoded; expr-lang's
 * `int` and `float` for asInt and asFloat refuse text that is not a number), for the subset we emit:
 * `{{=toJson(E)}}`, `{{=asInt(E)}}`, `{{=asInt(E) + 1}}`, `{{=asFloat(E)}}`, `{{=E == 'true'}}`, and plain
 * `{{ref}}` substitution. `values` is keyed by the expr-lang reference, e.g. `workflow.parameters['task-id']`,
 * or by the plain reference, e.g. `workflow.uid`.
 */
export function renderArgoTags(text: string, values: Readonly<Record<string, string>>): string {
  const valueOf = (reference: string): string => {
    const value = values[reference];
    if (value === undefined) throw new Error(`no value for ${reference}`);
    return value;
  };
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
    if ((match = /^toJson\((.+)\)$/.exec(body))) return JSON.stringify(valueOf(match[1]));
    if ((match = /^asInt\((.+)\) \+ 1$/.exec(body))) return String(asInt(match[1]) + 1);
    if ((match = /^asInt\((.+)\)$/.exec(body))) return String(asInt(match[1]));
    if ((match = /^asFloat\((.+)\)$/.exec(body))) return String(asFloat(match[1]));
    if ((match = /^(.+) == 'true'$/.exec(body))) return String(valueOf(match[1]) === 'true');
    throw new Error(`unexpected Argo expression ${body}`);
  });
}
