// JSON request bodies: Fastify's own parser (size limit, prototype-poisoning checks), plus the one
// rule JSON itself does not enforce: text must be valid Unicode. A "\ud800" escape decodes to a
// lone UTF-16 surrogate, which PostgreSQL refuses in jsonb (a 500) and which a text column would
// silently store as U+FFFD. Such a body is a 422 naming every field that carries one
// (docs/errors.md, VALIDATION_FAILED), before any route or verb runs.
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../domain/errors.ts';

/** Lone surrogates can only arrive as \u escapes (raw UTF-8 cannot encode them): a cheap pre-check. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MAX_REPORTED = 20;

/** Paths ("contact.name", "items[0].attributes.time") of strings or keys holding a lone surrogate. */
export function loneSurrogatePaths(root: unknown): string[] {
  const out: string[] = [];
  // Iterative walk: a deeply nested body cannot overflow the stack.
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length > 0 && out.length < MAX_REPORTED) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE.test(value)) out.push(path || '(body)');
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value).reverse()) {
        const p = path ? `${path}.${k}` : k;
        if (LONE.test(k)) out.push(p);
        else stack.push([v, p]);
      }
    }
  }
  return out;
}

export function jsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // go~mus clients send `Content-Type: application/json` with no body on body-less POSTs
    // (finalize, accept): that is no body, not a malformed one. Routes that need a body still
    // refuse its absence through their schema (422).
    if ((body as string).trim() === '') return done(null, undefined);
    parse(req, body as string, (err, value) => {
      if (err) return done(err, undefined);
      if (ESCAPED_SURROGATE.test(body as string)) {
        const bad = loneSurrogatePaths(value);
        if (bad.length > 0) {
          return done(invalid('request body is not valid Unicode text', bad.map((p) => `${p} contains a lone UTF-16 surrogate`)), undefined);
        }
      }
      done(null, value);
    });
  });
}
