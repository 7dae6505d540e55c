// Route schemas compiled on first use instead of while the server starts. Fastify compiles every
// route's validators (Ajv) and response serializers (fast-json-stringify) when it gets ready:
// about 130 validators and 550 serializers here (one per route and status code, errors included),
// which was most of the time `atrium serve` spent between opening the database and listening.
// With these compilers each schema is compiled by Fastify's own default compilers, with the same
// options, the first time it is used; `warm()` then compiles the rest in the background, a few
// milliseconds at a time, so first requests are fast again soon after start and a schema that
// does not compile is reported in the log instead of on the first request that needs it.
//
// The behaviour of a compiled schema is unchanged: the validator is the same Ajv function, called
// with the same arguments (the parent object, so Ajv may coerce a root value), and its `errors`
// are passed on. One difference: Fastify treats these as custom compilers, so it would not
// lower-case the property names of a `headers` schema; no route has one (a test checks).
import { createRequire } from 'node:module';

type Validate = ((data: unknown, dataCxt?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
type RouteSchema = { schema: unknown; method?: string; url?: string; httpPart?: string; httpStatus?: string; contentType?: string };
type BuildValidator = (externalSchemas: unknown, ajvOptions: unknown) => (route: RouteSchema) => Validate;
type BuildSerializer = (externalSchemas: unknown, serializerOptions: unknown) => (route: RouteSchema) => Serialize;

// Fastify's default compiler factories, from Fastify's own dependencies (the versions it uses).
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** The compiler's options and shared schemas as a key: apps built with other ones compile their own. */
function optionsKey(kind: string, externalSchemas: unknown, options: unknown): string {
  return `${kind}|${JSON.stringify(externalSchemas ?? null)}|${JSON.stringify(options ?? null)}`;
}

export interface LazySchemas {
  /** The `schemaController.compilersFactory` option of Fastify. */
  compilersFactory: { buildValidator: BuildValidator; buildSerializer: BuildSerializer };
  /** Schemas not compiled yet. */
  pending(): number;
  /** Compiles the pending schemas in slices of about `sliceMs`, yielding to requests in between. */
  warm(opts?: { sliceMs?: number; onError?: (err: unknown, route: RouteSchema) => void; stopped?: () => boolean }): Promise<void>;
}

// Compiled schemas shared by every app of this process, by the route's schema object (a module
// constant, the same for each app built from these routes), what part of the route it checks and
// the compiler's options: a test process builds several apps from the same routes, and compiling
// their schemas again for each was a large share of its time. A server process builds one app.
const compiled = new WeakMap<object, Map<string, unknown>>();
function shared<T>(route: RouteSchema, options: string, build: () => T): () => T {
  const schema = route.schema;
  if (schema === null || typeof schema !== 'object') return build;
  const key = `${options}|${route.method}|${route.url}|${route.httpPart}|${route.httpStatus}|${route.contentType}`;
  return () => {
    let byKey = compiled.get(schema);
    if (!byKey) compiled.set(schema, (byKey = new Map()));
    let fn = byKey.get(key) as T | undefined;
    if (fn === undefined) byKey.set(key, (fn = build()));
    return fn;
  };
}

export function lazySchemas(): LazySchemas {
  // Loaded on first use too: Ajv and fast-json-stringify take a while to load, and a new Ajv
  // instance compiles its meta-schemas and the shared schemas.
  let validatorFactory: BuildValidator | undefined;
  let serializerFactory: BuildSerializer | undefined;
  const defaultValidator = () => (validatorFactory ??= (fromFastify('@fastify/ajv-compiler') as () => BuildValidator)());
  const defaultSerializer = () => (serializerFactory ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => BuildSerializer)());
  // Compile steps not yet run, in registration order.
  const queue: Array<{ route: RouteSchema; compile: () => unknown }> = [];
  let done = 0;

  function once<T>(route: RouteSchema, build: () => T): () => T {
    let fn: T | undefined;
    const get = () => {
      if (fn === undefined) {
        fn = build();
        done++;
      }
      return fn;
    };
    queue.push({ route, compile: get });
    return get;
  }

  return {
    compilersFactory: {
      buildValidator(externalSchemas, ajvOptions) {
        let compiler: ((route: RouteSchema) => Validate) | undefined;
        const options = optionsKey('v', externalSchemas, ajvOptions);
        return (route) => {
          const get = once(route, shared(route, options, () => (compiler ??= defaultValidator()(externalSchemas, ajvOptions))(route)));
          const validate: Validate = (data, dataCxt) => {
            const fn = get();
            const result = fn(data, dataCxt);
            validate.errors = fn.errors;
            return result;
          };
          // Fastify passes the parent object only to a function that has this (an Ajv function).
          validate.schemaEnv = true;
          return validate;
        };
      },
      buildSerializer(externalSchemas, serializerOptions) {
        let compiler: ((route: RouteSchema) => Serialize) | undefined;
        const options = optionsKey('s', externalSchemas, serializerOptions);
        return (route) => {
          const get = once(route, shared(route, options, () => (compiler ??= defaultSerializer()(externalSchemas, serializerOptions))(route)));
          return (data) => get()(data);
        };
      },
    },
    pending: () => queue.length - done,
    async warm({ sliceMs = 5, onError, stopped } = {}) {
      let i = 0;
      while (i < queue.length && !stopped?.()) {
        const until = performance.now() + sliceMs;
        while (i < queue.length && performance.now() < until) {
          const item = queue[i++]!;
          try {
            item.compile();
          } catch (err) {
            onError?.(err, item.route);
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
