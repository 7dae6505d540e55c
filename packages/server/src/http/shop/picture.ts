// A catalogue record's picture on shop pages: the go~mus `picture` the API answers (one JPEG per
// size under /media) as an <img> with a srcset over the sizes, so a phone loads the small one;
// the alt text is the picture's title (empty, i.e. decorative, when it has none). A record
// without a picture, or one whose paths are not the media store's, shows no image at all.
export interface ShopPicture {
  src: string;
  srcset: string;
  /** The same sizes as WebP (the media store writes both formats of every size). */
  webpSrcset: string;
  alt: string;
}

// Widths are the variants' longest edges (domain/media/images.ts): exact for landscape pictures,
// an upper bound for portrait ones, which is what the browser needs to pick no smaller one.
const SIZES: Array<[string, number]> = [['teaser', 320], ['preview', 640], ['article', 1024]];
const MEDIA = /^\/media\/[A-Za-z0-9/_.-]+\.jpg$/;

export function shopPicture(p: Record<string, unknown> | null | undefined): ShopPicture | null {
  if (!p || typeof p !== 'object') return null;
  const url = (k: string) => (typeof p[k] === 'string' && MEDIA.test(p[k] as string) && !(p[k] as string).includes('..') ? (p[k] as string) : null);
  const set = SIZES.flatMap(([k, w]) => (url(k) ? [`${url(k)} ${w}w`] : []));
  const src = url('preview') ?? url('teaser') ?? url('article');
  if (!src) return null;
  const srcset = set.join(', ');
  return { src, srcset, webpSrcset: srcset.replace(/\.jpg /g, '.webp '), alt: typeof p.title === 'string' ? p.title : '' };
}
