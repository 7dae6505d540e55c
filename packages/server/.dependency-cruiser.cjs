// The layer rules (docs/adr/0041-layer-rules.md), checked by `npm run lint` over src/.
// Paths are relative to packages/server. Transports (http/) → domain → db; jobs/, notify/,
// documents/ and scan/ sit beside the transports: they may use the domain and db, and the domain
// reaches them only through interfaces it defines or rows it writes (the job queue, the outbox).


module.exports = {
  forbidden: [
    {
      name: 'transports-only-from-app',
      comment: 'Transports (src/http/**) are entry points: only app.ts registers them.',
      severity: 'error',
      from: { pathNot: '^src/(app\\.ts$|http/)' },
      to: { path: '^src/http/' },
    },
    {
      name: 'transports-apart',
      comment: 'Each transport (api, console, scan) stands alone; what they share sits in src/http/*.ts.',
      severity: 'error',
      from: { path: '^src/http/([^/]+)/' },
      to: { path: '^src/http/[^/]+/', pathNot: '^src/http/$1/' },
    },
    {
      name: 'domain-not-up',
      comment:
        'The domain imports no transport, adapter or process code: jobs, notify, documents, scan and ' +
        'cache are reached through interfaces defined in the domain, or rows it writes.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(app\\.ts|main\\.ts|http|web|cli|cluster|jobs|notify|documents|providers|scan|cache|ops)(/|$)' },
    },
    {
      name: 'domain-no-sql-driver',
      comment: 'No SQL in the domain: statements live in src/db/repositories/.',
      severity: 'error',
      from: { path: '^src/domain/', },
      to: { path: 'node_modules/(@types/)?(pg|drizzle-orm)/' },
    },
    {
      name: 'db-is-the-bottom',
      comment: 'src/db/** imports nothing above it.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(app\\.ts|main\\.ts|http|web|domain|cli|cluster|jobs|notify|documents|providers|scan|cache)(/|$)' },
    },
    {
      name: 'cache-is-infrastructure',
      comment: 'The caches implement domain interfaces by shape; rules they need are handed in by app.ts.',
      severity: 'error',
      from: { path: '^src/cache/' },
      to: { path: '^src/(app\\.ts|http|web|domain|cli|cluster|jobs|notify|documents|providers|scan)(/|$)' },
    },
    {
      name: 'cluster-not-cli',
      comment: 'The cluster runs beside the command line, not on top of it.',
      severity: 'error',
      from: { path: '^src/cluster/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles at run time (a cycle through a type-only import is erased by the compiler).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // Resolve the `.ts` specifiers the sources use (allowImportingTsExtensions).
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
  },
};
