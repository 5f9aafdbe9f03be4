/** sjson paths, as Argo Events writes trigger parameters: keys by `.`, numbers index arrays, `-1` appends. */
import { splitPath } from './gjson';

export function sjsonSet(target: object, path: string, value: unknown): object {
  const root = structuredClone(target) as Record<string, unknown>;
  const parts = splitPath(path);
  let container: any = root;
  parts.forEach((part, index) => {
    const last = index === parts.length - 1;
    const key: string | number = Array.isArray(container) ? (part === '-1' ? container.length : Number(part)) : part;
    if (last) {
      container[key] = value;
      return;
    }
    if (container[key] === null || typeof container[key] !== 'object') container[key] = /^(-1|[0-9]+)$/.test(parts[index + 1]) ? [] : {};
    container = container[key];
  });
  return root;
}
