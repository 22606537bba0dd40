// The import layers of src/ (docs/architecture.md), as ESLint rules: for each folder, the folders it
// must not import from. Relative imports are matched by the first folder they reach under src/.
const FOLDERS = [
  'analysis', 'circuits', 'cli', 'remote', 'engine', 'errors', 'formats', 'generated', 'health', 'http', 'jobq', 'jobs', 'losses',
  'realtime', 'rmi', 'script', 'server', 'simulations', 'store', 'threads', 'xmlrpc',
];
const FEATURES = ['analysis', 'circuits', 'health', 'losses', 'realtime', 'simulations'];

/** Folder → the folders it may import (besides itself). `errors` (the one error model) is below all. */
const ALLOWED = {
  errors: [],
  formats: ['errors'],
  threads: ['errors'],
  xmlrpc: ['errors', 'threads'],
  engine: ['errors', 'formats'],
  store: ['errors', 'formats', 'engine'],
  jobs: ['errors', 'store', 'engine', 'formats', 'xmlrpc', 'threads'],
  http: ['errors', 'jobs', 'store', 'engine', 'formats', 'threads'],
  remote: ['errors', 'jobs', 'store', 'engine', 'formats'],
  ...Object.fromEntries(FEATURES.map((f) => [f, ['errors', 'http', 'remote', 'jobs', 'store', 'engine', 'formats', ...FEATURES]])),
  rmi: [...FEATURES, 'errors', 'http', 'remote', 'jobs', 'store', 'engine', 'formats', 'xmlrpc'],
  script: [...FEATURES, 'errors', 'http', 'remote', 'jobs', 'store', 'engine', 'formats'],
  server: [...FEATURES, 'generated', 'errors', 'rmi', 'script', 'http', 'remote', 'jobs', 'store', 'engine', 'formats', 'xmlrpc'],
  jobq: [...FEATURES, 'generated', 'errors', 'rmi', 'script', 'http', 'remote', 'jobs', 'store', 'engine', 'formats', 'xmlrpc'],
};

function rule(folder, allowed) {
  const forbidden = FOLDERS.filter((f) => f !== folder && !allowed.includes(f));
  return {
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
          message: `src/${folder} may import only from ${allowed.length > 0 ? allowed.join(', ') : 'itself'} (docs/architecture.md)`,
        }],
      }],
    },
  };
}

export const layerRules = [
  ...Object.entries(ALLOWED).map(([folder, allowed]) => rule(folder, allowed)),
  // The package's Node API entry loads the engine and the readers only.
  {
    files: ['src/index.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: `^\\./(?!engine/|formats/|errors/)`, message: 'src/index.ts (the Node API) exports the engine and the readers only (docs/architecture.md)' }],
      }],
    },
  },
];
