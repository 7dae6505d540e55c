// What may reach a log line (docs/operations.md, "Logs"):
// - errors are logged field by field from an allow-list: a failed statement appears as its SQL
//   text (placeholders only, cut short) under `statement`, never its bound parameters. Drizzle
//   puts the parameters into the error's message and stack ("Failed query: …\nparams: …"), and
//   pg's `detail` repeats key values ("Key (email)=(…) already exists"), so both are cleaned;
// - no line is longer than MAX_LOG_LINE: a longer one is replaced by a short line keeping its
//   level, time, request id and message, marked `truncated`, with the original length.

/** Longest log line written, in characters. */
export const MAX_LOG_LINE = 16 * 1024;
const STATEMENT_CHARS = 200;
const STACK_LINES = 12;

type Loose = Record<string, unknown>;

/** A statement's label for the log: its SQL text with whitespace collapsed, cut short. */
export function statementLabel(query: unknown): string | undefined {
  if (typeof query !== 'string') return undefined;
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length > STATEMENT_CHARS ? `${flat.slice(0, STATEMENT_CHARS)}…` : flat;
}

/**
 * The message without values: Drizzle's "Failed query: <sql>\nparams: <values>" becomes "failed
 * query" (the SQL goes to `statement`), and PostgreSQL's quoted input after a colon
 * (`invalid input syntax for type integer: "<value>"`) is dropped; quoted names without a colon
 * before them (`relation "x" does not exist`) stay.
 */
function cleanMessage(message: string): string {
  if (message.startsWith('Failed query: ')) return 'failed query';
  const m = message.replace(/: "[\s\S]*$/, ': "…"');
  return m.length > 1000 ? `${m.slice(0, 1000)}…` : m;
}

function cleanStack(stack: unknown, message: string, type: string): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((l) => /^\s+at /.test(l)).slice(0, STACK_LINES);
  return [`${type}: ${message}`, ...frames].join('\n');
}

// Fields of pg's DatabaseError that name things, never values.
const SAFE_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine', 'dataType', 'statusCode', 'validationContext'];

export interface SafeError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** pino `err` serializer: an allow-list of the error's fields, its cause chain the same way. */
export function safeError(err: unknown): SafeError {
  return safe(err, 0);
}

function safe(err: unknown, depth: number): SafeError {
  if (!err || typeof err !== 'object') return { type: typeof err, message: String(err), stack: '' };
  const e = err as Loose;
  const type = typeof e.name === 'string' ? e.name : (err as object).constructor?.name ?? 'Error';
  const message = cleanMessage(typeof e.message === 'string' ? e.message : String(err));
  const out: SafeError = { type, message, stack: cleanStack(e.stack, message, type) ?? '' };
  const statement = statementLabel(e.query);
  if (statement) out.statement = statement;
  for (const k of SAFE_FIELDS) {
    const v = e[k];
    if (typeof v === 'string' || typeof v === 'number') out[k] = typeof v === 'string' ? v.slice(0, 200) : v;
  }
  if (e.cause && depth < 4) out.cause = safe(e.cause, depth + 1);
  return out;
}

function field(line: string, name: string): string | undefined {
  // Pino writes these as flat JSON members; the first match is the top-level one for level,
  // time and reqId (written before any user field), the last for msg (written last).
  const re = new RegExp(`"${name}":("(?:[^"\\\\]|\\\\.){0,2000}"|-?\\d+)`, 'g');
  let found: string | undefined;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    found = m[1];
    if (name !== 'msg') break;
  }
  return found;
}

/** pino `hooks.streamWrite`: a line over MAX_LOG_LINE becomes a short line saying so. */
export function capLine(s: string): string {
  if (s.length <= MAX_LOG_LINE) return s;
  const head = s.slice(0, 4096);
  const tail = s.slice(-4096);
  const parts = [
    field(head, 'level') && `"level":${field(head, 'level')}`,
    field(head, 'time') && `"time":${field(head, 'time')}`,
    field(head, 'pid') && `"pid":${field(head, 'pid')}`,
    field(head, 'reqId') && `"reqId":${field(head, 'reqId')}`,
    `"msg":${field(tail, 'msg') ?? '"log line truncated"'}`,
    '"truncated":true',
    `"original_length":${s.length}`,
  ].filter(Boolean);
  return `{${parts.join(',')}}\n`;
}
