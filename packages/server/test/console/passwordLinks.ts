// Test helpers for set-password links: the link an admin's page shows, and setting a password
// through it as an anonymous browser from a given client address (the page's limiter counts per
// address).
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { cookiesOf, csrfOf } from './support.ts';

/** The set-password link shown once on the admin's page (an absolute URL), or undefined. */
export const linkOf = (html: string) => /id="secret" class="secret" readonly value="([^"]+)"/.exec(html)?.[1];
export const pathOf = (url: string) => new URL(url, 'http://localhost').pathname;

/** Posts the set-password form of `url` with the sign-in form's double-submit token. */
export async function setPasswordThrough(t: TestApp, url: string, next: string, repeat = next, ip = '127.0.0.1', lang = 'en'): Promise<LightMyRequestResponse> {
  const login = await t.app.inject({ method: 'GET', url: '/console/login', remoteAddress: ip });
  return t.app.inject({
    method: 'POST',
    url: pathOf(url),
    remoteAddress: ip,
    cookies: cookiesOf(login),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(login.body), next, repeat, lang }).toString(),
  });
}
