// The picture variants and formats, apart from the image library that makes them: a picture's
// JSON (picture.ts) names its variants without loading sharp.
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** go~mus's picture sizes, as the longest edge in pixels; `original` keeps the full size. */
export const VARIANTS = { teaser: 320, preview: 640, article: 1024, detail: 1600, original: null } as const;
export type VariantName = keyof typeof VARIANTS;
export const FORMATS = ['jpg', 'webp'] as const;
