// Tolerance (spec 1.1, 1.2, 9.2): answers are never validated strictly. Records may lack fields or
// lists may hold fewer records than the meta suggests; nothing here throws. Fields the client does
// not know (not in the OpenAPI document it was generated from) are reported through the logger,
// once per operation and field path, so an integrator notices new fields without log floods.
import { OPERATIONS, TABLE } from './generated/shapes.ts';
import type { Logger } from './logger.ts';

const MAX_REPORTS = 1000;

export class UnknownFieldReporter {
  private readonly seen = new Set<string>();
  constructor(private readonly logger: Logger) {}

  check(op: string, body: unknown): void {
    const root = OPERATIONS[op];
    // An operation the generated document does not know yet (a newer server): nothing to compare.
    if (root === undefined || root === 0) return;
    this.walk(op, body, root, '', 0);
  }

  private walk(op: string, value: unknown, ref: number, at: string, depth: number): void {
    if (ref === 0 || value === null || typeof value !== 'object' || depth > 20) return;
    const node = TABLE[ref - 1];
    if (!node) return;
    if ('i' in node) {
      if (Array.isArray(value)) for (const item of value) this.walk(op, item, node.i, `${at}[]`, depth + 1);
      return;
    }
    if (Array.isArray(value)) return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const path = at ? `${at}.${key}` : key;
      const child = node.p[key];
      if (child === undefined) this.report(op, path);
      else this.walk(op, v, child, path, depth + 1);
    }
  }

  private report(op: string, field: string): void {
    const key = `${op} ${field}`;
    if (this.seen.has(key) || this.seen.size >= MAX_REPORTS) return;
    this.seen.add(key);
    this.logger.warn({ event: 'atrium.unknown_field', operation: op, field }, `unknown field "${field}" in ${op} (ignored)`);
  }
}
