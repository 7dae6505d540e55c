// The SQLSTATE of a PostgreSQL error, also when Drizzle wraps it (the driver error is its `cause`).
// Undefined for anything else, e.g. a lost connection (ECONNRESET), whose outcome is unknown.
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
