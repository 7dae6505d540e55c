// Console test helpers: staff users straight through the domain, and a signed-in "browser"
// (cookie jar + CSRF token) over app.inject.
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { createStaffUser } from '../../src/domain/staff/users.ts';
import { multipart } from '../media/pictures.ts';
import type { StaffRole } from '../../src/domain/staff/permissions.ts';

export const PASSWORD = 'correct horse battery';

export async function staffUser(t: TestApp, role: StaffRole, museumIds: number[] = [], email?: string) {
  const { user } = await createStaffUser({ db: t.database.db, clock: t.clock }, { cli: true }, {
    email: email ?? `${role}-${Math.random().toString(36).slice(2, 8)}@example.org`,
    role,
    museumIds,
    password: PASSWORD,
    locale: 'en',
  });
  return user;
}

export function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.cookies) out[c.name] = c.value;
  return out;
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

export interface UploadFile { name: string; type: string; bytes: Buffer }

export interface Browser {
  cookies: Record<string, string>;
  csrf: string;
  get(url: string): Promise<LightMyRequestResponse>;
  /** With `file`: sent as multipart/form-data (the CSRF token as a field), else url-encoded. */
  post(url: string, form: Record<string, string | string[]>, opts?: { csrf?: string | null; file?: UploadFile }): Promise<LightMyRequestResponse>;
}

function encode(form: Record<string, string | string[]>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of [v].flat()) p.append(k, x);
  return p.toString();
}

/** An anonymous browser: no session yet. */
export function anonymousBrowser(t: TestApp): Browser {
  const b: Browser = {
    cookies: {},
    csrf: '',
    async get(url) {
      const res = await t.app.inject({ method: 'GET', url, cookies: b.cookies });
      Object.assign(b.cookies, cookiesOf(res));
      const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
      if (m && b.cookies.atrium_console) b.csrf = m[1]!;
      return res;
    },
    async post(url, form, opts = {}) {
      const token = opts.csrf === undefined ? b.csrf : opts.csrf;
      const fields = token === null ? form : { _csrf: token, ...form };
      const body = opts.file
        ? multipart(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, [v].flat()[0] ?? ''])), opts.file)
        : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: encode(fields) };
      const res = await t.app.inject({ method: 'POST', url, cookies: b.cookies, ...body });
      Object.assign(b.cookies, cookiesOf(res));
      return res;
    },
  };
  return b;
}

export async function signIn(t: TestApp, email: string, password = PASSWORD): Promise<Browser> {
  const b = anonymousBrowser(t);
  const page = await b.get('/console/login');
  const res = await b.post('/console/login', { email, password }, { csrf: csrfOf(page.body) });
  if (res.statusCode !== 303) throw new Error(`sign-in failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
  const day = await b.get('/console/account');
  b.csrf = csrfOf(day.body);
  return b;
}
