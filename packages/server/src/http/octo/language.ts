// Which language content is answered in (octo/content): the first of `Accept-Language` (by
// q-value) that the instance offers, else its first language.
import type { FastifyRequest } from 'fastify';

export function contentLanguage(req: FastifyRequest, offered: string[]): string {
  const header = req.headers['accept-language'];
  const wanted = (typeof header === 'string' ? header : '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag: (tag ?? '').trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const w of wanted) {
    const hit = offered.find((o) => o.toLowerCase() === w.tag) ?? offered.find((o) => o.toLowerCase().split('-')[0] === w.tag.split('-')[0]);
    if (hit) return hit;
  }
  return offered[0] ?? 'en';
}

export function textIn(t: Record<string, string> | null | undefined, lang: string): string {
  if (!t) return '';
  return t[lang] ?? t[lang.split('-')[0]!] ?? t.en ?? t.de ?? Object.values(t)[0] ?? '';
}
