// Every endpoint the client calls is declared once with `endpoint()`, at module load. The list
// lets a test prove that the client covers every operation of openapi/openapi.json, and the
// operation key ("GET /api/v4/tickets/{id}") selects the known response fields for the
// unknown-field report (src/shape.ts).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: HttpMethod;
  /** Path below /api/v4 with `{name}` placeholders. */
  template: string;
  /** "METHOD /api/v4/…", as in the OpenAPI document. */
  op: string;
  /**
   * What a failed attempt may lead to (spec 7.4): 'idempotent' endpoints are resent after 5xx and
   * network errors; 'once' endpoints never are (POSTs, or protected by their own lookup).
   */
  retry: 'idempotent' | 'once';
  /** Master data may be cached (spec 1.3); everything else is always fetched live. */
  cache: 'master' | 'live';
  /** Path parameters that are secrets (reservation tokens, order tokens) and masked in logs. */
  secretParams: readonly string[];
}

const registry = new Map<string, Endpoint>();

export function endpoint(
  method: HttpMethod,
  template: string,
  opts: { cache?: 'master' | 'live'; retry?: 'idempotent' | 'once'; secret?: string[] } = {},
): Endpoint {
  const ep: Endpoint = {
    method,
    template,
    op: `${method} /api/v4${template}`,
    retry: opts.retry ?? (method === 'POST' || method === 'PATCH' ? 'once' : 'idempotent'),
    cache: opts.cache ?? 'live',
    secretParams: opts.secret ?? [],
  };
  registry.set(ep.op, ep);
  return ep;
}

/** Every operation the client implements (for the coverage test). */
export function registeredOperations(): string[] {
  return [...registry.keys()].sort();
}

export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new TypeError(`path parameter "${name}" is missing for ${template}`);
    return encodeURIComponent(String(v));
  });
}

/** Rails-style query string, as the API expects: `ids[]=1&ids[]=2`; undefined values are left out. */
export function toQuery(query: object | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) parts.push(`${encodeURIComponent(`${k}[]`)}=${encodeURIComponent(String(x))}`);
    else parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
