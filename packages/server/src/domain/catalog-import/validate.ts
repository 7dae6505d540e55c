// Pure validation of a catalogue document: structure (TypeBox), duplicate keys, references and
// rules. No database: the result is every issue at once plus the normalised plan, which is
// only applied when there are no issues.
import { Settings } from 'typebox/system';
import { Value } from 'typebox/value';
import { emptyPlan, Issues, type Plan } from './plan.ts';
import { checkClosures } from './rules-closures.ts';
import { checkProducts } from './rules-products.ts';
import { checkExhibitions, checkLanguages, checkMuseums, checkQuotas, type Refs } from './rules.ts';
import { CatalogueDocument } from './schema.ts';
import type { Issue, Path } from './source.ts';

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

const A: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

function pointer(p: string): Path {
  if (!p) return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function alternative(e: SchemaError): string {
  if (e.keyword === 'type') return A[String(e.params.type)] ?? String(e.params.type);
  if (e.keyword === 'const') return JSON.stringify(e.params.allowedValue);
  return e.message.replace(/^must be /, '');
}

/** TypeBox errors → one readable issue per problem (union branches folded into one message). */
function schemaIssues(value: unknown): Issue[] {
  // TypeBox stops after `maxErrors` (8 by default); a file should get every problem at once.
  // The setting is global, so it is raised only for this synchronous call.
  const before = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: 1000 });
  let errors: SchemaError[];
  try {
    errors = [...Value.Errors(CatalogueDocument, value)] as SchemaError[];
  } finally {
    Settings.Set({ maxErrors: before });
  }
  const out: Issue[] = [];
  const skip = new Set<SchemaError>();
  for (const u of errors.filter((e) => e.keyword === 'anyOf')) {
    const subs = errors.filter((e) => e.schemaPath.startsWith(`${u.schemaPath}/anyOf/`));
    const deeper = subs.filter((e) => e.instancePath.length > u.instancePath.length);
    // A value of the right kind with a bad inside (e.g. a nullable mapping holding a number):
    // the inner error is the useful one; otherwise name the accepted alternatives.
    for (const s of subs) if (!deeper.includes(s)) skip.add(s);
    if (deeper.length) skip.add(u);
    else u.message = `must be ${[...new Set(subs.map(alternative))].join(' or ')}`;
  }
  for (const e of errors) {
    if (skip.has(e) || e.keyword === 'additionalProperties') continue;
    const path = pointer(e.instancePath);
    if (e.keyword === 'boolean' && e.schemaPath.endsWith('additionalProperties')) {
      out.push({ path, message: `unknown field "${String(path.at(-1))}"`, atKey: true });
    } else if (e.keyword === 'required') {
      for (const p of e.params.requiredProperties as string[]) out.push({ path, message: `missing required field "${p}"` });
    } else if (e.keyword === 'type') {
      out.push({ path, message: `must be ${alternative(e)}` });
    } else if (e.keyword === 'enum') {
      out.push({ path, message: `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}` });
    } else {
      out.push({ path, message: e.message });
    }
  }
  return out;
}

const SECTIONS = ['museums', 'exhibitions', 'quotas', 'tickets', 'events', 'tours', 'closures'] as const;

function keyed(v: unknown): v is { key: string; museum?: unknown; kind?: unknown } {
  return typeof v === 'object' && v !== null && typeof (v as { key?: unknown }).key === 'string';
}

/** `today` (museum-independent, YYYY-MM-DD) is where a recurrence without start_date begins. */
export function validateCatalogue(value: unknown, today = new Date().toISOString().slice(0, 10)): { issues: Issue[]; plan: Plan } {
  const plan = emptyPlan();
  if (value === null || value === undefined) return { issues: [{ path: [], message: 'the file is empty' }], plan };
  const structural = schemaIssues(value);
  const issues = new Issues();
  issues.list.push(...structural);
  if (typeof value !== 'object' || Array.isArray(value)) return { issues: issues.list, plan };

  const doc = value as Record<string, unknown>;
  const list = (name: string): unknown[] => (Array.isArray(doc[name]) ? (doc[name] as unknown[]) : []);
  const prefix = (a: Path, b: Path) => a.length <= b.length && a.every((s, i) => s === b[i]);
  // Rules run on records whose fields have the right types; an unknown extra field does not
  // stop them (it changes nothing they read), so a typo does not hide other problems.
  const typeErrors = structural.filter((s) => !s.atKey);
  const ok = (path: Path) => !typeErrors.some((s) => prefix(path, s.path) || prefix(s.path, path));

  // Keys of every record, even structurally broken ones, so that one bad record does not also
  // produce "unknown" errors at each place that names it.
  const refs: Refs = { languages: new Set(), museumZone: new Map(), exhibitionMuseum: new Map(), quotaMuseum: new Map(), quotaKind: new Map(), productMuseum: new Map() };
  list('languages').forEach((l, i) => {
    const code = (l as { code?: unknown })?.code;
    if (typeof code !== 'string') return;
    if (refs.languages.has(code)) issues.add(['languages', i, 'code'], `duplicate language code "${code}"`);
    refs.languages.add(code);
  });
  for (const section of SECTIONS) {
    const seen = new Set<string>();
    list(section).forEach((r, i) => {
      if (!keyed(r)) return;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(r.key)) {
        issues.add([section, i, 'key'], `key "${r.key}" may contain only letters, digits, ".", "_" and "-"`);
      }
      if (seen.has(r.key)) issues.add([section, i, 'key'], `duplicate key "${r.key}" in ${section}`);
      seen.add(r.key);
      const museum = typeof r.museum === 'string' ? r.museum : '';
      if (section === 'museums') refs.museumZone.set(r.key, String((r as { time_zone?: unknown }).time_zone ?? 'UTC'));
      if (section === 'exhibitions') refs.exhibitionMuseum.set(r.key, museum);
      if (section === 'tickets' || section === 'quotas' || section === 'events' || section === 'tours') refs.productMuseum.set(`${section}/${r.key}`, museum);
      if (section === 'quotas') {
        refs.quotaMuseum.set(r.key, museum);
        if (r.kind === 'slot' || r.kind === 'day') refs.quotaKind.set(r.key, r.kind);
      }
    });
  }
  for (const [k, zone] of refs.museumZone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
    } catch {
      refs.museumZone.set(k, 'UTC'); // reported by checkMuseums; keeps later parsing safe
    }
  }
  plan.zones = refs.museumZone;

  const full = {
    languages: [],
    museums: [],
    exhibitions: [],
    quotas: [],
    tickets: [],
    events: [],
    tours: [],
    closures: [],
    ...Object.fromEntries(Object.entries(doc).filter(([, v]) => Array.isArray(v))),
  } as Required<CatalogueDocument>;
  checkLanguages(full.languages, ok, issues, plan);
  checkMuseums(full.museums, ok, issues, plan);
  checkExhibitions(full.exhibitions, ok, issues, plan, refs);
  checkQuotas(full.quotas, ok, issues, plan, refs);
  checkProducts(full, ok, issues, plan, refs, today);
  checkClosures(full.closures, ok, issues, plan, refs);
  return { issues: issues.list, plan };
}
