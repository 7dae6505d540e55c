// Reads a catalogue file's text, YAML or JSON, keeping where every value sits so that errors
// can name file:line:column. One parser for both: JSON is (for our purposes) YAML 1.2, and the
// `yaml` package gives node ranges for either.
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';

export type Path = Array<string | number>;

export interface Issue {
  path: Path;
  message: string;
  /** The offending key itself rather than its value (unknown fields). */
  atKey?: boolean;
}

export interface CatalogueSource {
  name: string;
  value: unknown;
  /** "name:line:col" of the value at `path`, or of its nearest existing parent. */
  where(path: Path, atKey?: boolean): string;
  /** Syntax errors, already positioned ("name:line:col: message"). */
  syntaxErrors: string[];
  /** The path as the reader should see it (a directory's files each count from [0]). */
  label?(path: Path): string;
}

/**
 * Several files as one catalogue (`atrium import DIR`): each section is the files' lists one
 * after the other, in file name order, and positions and paths point into the file a record came
 * from. Keys and references work across files, so a museum may sit in one file and its tickets
 * in another.
 */
export function mergeSources(name: string, sources: CatalogueSource[]): CatalogueSource {
  const syntaxErrors = sources.flatMap((s) => s.syntaxErrors);
  const merged: Record<string, unknown> = {};
  // For each section, [source, index of its first record in the merged list].
  const origin = new Map<string, Array<{ source: CatalogueSource; from: number }>>();
  for (const s of sources) {
    const v = s.value;
    if (v === undefined || v === null) continue;
    if (typeof v !== 'object' || Array.isArray(v)) {
      syntaxErrors.push(`${s.where([])}: the file must be a mapping of sections (museums, tickets, …)`);
      continue;
    }
    for (const [section, items] of Object.entries(v)) {
      const have = merged[section];
      if (Array.isArray(items) && (have === undefined || Array.isArray(have))) {
        const list = (have ?? []) as unknown[];
        merged[section] = list;
        origin.set(section, [...(origin.get(section) ?? []), { source: s, from: list.length }]);
        list.push(...items);
      } else if (have === undefined) {
        // Not a list: kept as it is, so validation reports it at its place in this file.
        merged[section] = items;
        origin.set(section, [{ source: s, from: 0 }]);
      } else syntaxErrors.push(`${s.where([section], true)}: "${section}" must be a list to be combined with the other files`);
    }
  }
  const locate = (path: Path): { source: CatalogueSource; path: Path } | null => {
    const [section, index, ...rest] = path;
    const parts = origin.get(String(section));
    if (!parts) return null;
    if (typeof index !== 'number') return { source: parts[0]!.source, path };
    const part = [...parts].reverse().find((p) => p.from <= index) ?? parts[0]!;
    return { source: part.source, path: [section!, index - part.from, ...rest] };
  };
  return {
    name,
    value: syntaxErrors.length ? undefined : merged,
    syntaxErrors,
    where(path, atKey = false) {
      const l = locate(path);
      return l ? l.source.where(l.path, atKey) : `${name}:1:1`;
    },
    label(path) {
      const l = locate(path);
      return formatPath(l ? l.path : path);
    },
  };
}

/** `tickets[2].quotas[0]`; keys that are not identifiers are quoted: `overrides["2026-12-24"]`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out || '(document)';
}

function nodeAt(doc: Document, path: Path, atKey: boolean): { node: Node | null; exact: boolean } {
  let node: unknown = doc.contents;
  for (let i = 0; i < path.length; i++) {
    if (!isNode(node) || !('items' in node)) return { node: isNode(node) ? node : null, exact: false };
    const seg = path[i];
    const items = (node as { items: unknown[] }).items;
    if (isMap(node)) {
      const pair = node.items.find((it) => isScalar(it.key) && String(it.key.value) === String(seg));
      if (!pair) return { node, exact: false };
      if (atKey && i === path.length - 1 && isNode(pair.key)) return { node: pair.key, exact: true };
      // `key:` with no value has a null value node; point at the key then.
      node = isNode(pair.value) ? pair.value : pair.key;
    } else {
      const next = typeof seg === 'number' ? items[seg] : undefined;
      if (!isNode(next)) return { node, exact: false };
      node = next;
    }
  }
  return { node: isNode(node) ? node : null, exact: true };
}

export function readCatalogueSource(text: string, name: string): CatalogueSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true, version: '1.2' });
  const pos = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${name}:${line}:${col}`;
  };
  const syntaxErrors = doc.errors.map((e) => {
    const first = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return `${pos(e.pos[0])}: ${first}`;
  });
  return {
    name,
    value: syntaxErrors.length ? undefined : doc.toJS({ maxAliasCount: 100 }),
    syntaxErrors,
    where(path, atKey = false) {
      const { node } = nodeAt(doc, path, atKey);
      const offset = node?.range?.[0];
      return offset === undefined ? `${name}:1:1` : pos(offset);
    },
  };
}
