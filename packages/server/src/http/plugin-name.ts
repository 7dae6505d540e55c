// Our route plugins carry their name in Fastify's documented display-name property. Without it,
// Fastify looks for a plugin's name by comparing the function with the exports of every loaded
// CommonJS module, twice per registration; with ~50 plugins per app and every test process
// building many apps, that search was a noticeable share of building one.
const DISPLAY_NAME = Symbol.for('fastify.display-name');

/** `plugin`, named for Fastify's plugin tree and errors (its function name by default). */
export function named<P extends object>(plugin: P, name?: string): P {
  const p = plugin as P & { [DISPLAY_NAME]?: string; name?: string };
  p[DISPLAY_NAME] ??= name ?? (p.name || 'atrium-plugin');
  return plugin;
}
