// The /scan page's language: ?lang=de|en when given; otherwise the device's Accept-Language
// (its most preferred of de and en, by q-value); otherwise the instance's first configured locale.
export type Lang = 'de' | 'en';

const asLang = (v: unknown): Lang | null => (v === 'de' || v === 'en' ? v : null);

/** The most preferred of de/en in an Accept-Language header ("fr, en;q=0.8" → en), or null. */
export function fromAcceptLanguage(header: string | undefined): Lang | null {
  const ranked = (header ?? '').slice(0, 500).split(',').map((part, i) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
    return { lang: asLang(tag.trim().slice(0, 2).toLowerCase()), q: q === undefined ? 1 : Number(q), i };
  });
  const best = ranked.filter((r) => r.lang !== null && r.q > 0).sort((a, b) => b.q - a.q || a.i - b.i)[0];
  return best?.lang ?? null;
}

export function scanLang(query: string | undefined, acceptLanguage: string | undefined, instanceLocales: readonly string[]): Lang {
  const fallback = instanceLocales.map((l) => asLang(l.slice(0, 2))).find((l) => l !== null) ?? 'de';
  return asLang(query) ?? fromAcceptLanguage(acceptLanguage) ?? fallback;
}
