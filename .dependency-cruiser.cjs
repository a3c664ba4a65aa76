/**
 * The layer order of src/ (ARCHITECTURE.md): a folder imports only from folders of lower
 * layers, never from a higher one or from a peer of its own layer. `npm run lint` checks it
 * (type-only imports count: a type is a dependency too).
 */
const LAYERS = [
  ['platform'],
  ['content-engine'],
  ['users'],
  ['orgs'],
  ['collections', 'conversations'],
  ['spaces'],
  ['change-requests'],
  ['comments', 'sites', 'openapi', 'translations', 'git', 'invites', 'audit', 'webhooks'],
  ['sign-in', 'answers', 'imports', 'urls'],
  ['seed'],
];

const folder = (names) => `^src/(${names.join('|')})/`;

/** For each folder: it must not import its layer's peers nor anything above its layer. */
const layerRules = LAYERS.flatMap((layer, rank) => {
  const above = LAYERS.slice(rank + 1).flat();
  return layer.map((name) => {
    const forbidden = [...layer.filter((peer) => peer !== name), ...above];
    return {
      name: `layer-${name}`,
      comment: `src/${name} sits in layer ${rank}: it may import only from lower layers.`,
      severity: 'error',
      from: { path: `^src/${name}/` },
      to: {
        path: forbidden.length > 0 ? folder(forbidden) : '^$',
        // The application's entry points (src/*.ts) sit above every layer.
      },
    };
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'layer-entry-points',
      comment: 'Only the entry points (src/*.ts) import the entry points.',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles between modules.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
