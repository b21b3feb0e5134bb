/**
 * The synthetic developer's world: a set of projects, each with its own language, modules, files,
 * identifiers and error codes. Sessions of every agent draw from the same projects, so project
 * words cluster the way they do in a real home directory.
 */
import {
  CODENAMES,
  DOMAIN_NOUNS,
  ERROR_CODES,
  ERROR_STATES,
  LIBRARIES,
  PROJECT_SUFFIXES,
  TECH_NOUNS,
  VERBS,
} from './lexicon.js';
import { Random } from './prng.js';

export type Lang = 'ts' | 'py' | 'go' | 'rs';

export interface Commands {
  test: string;
  build: string;
  lint: string;
  typecheck: string;
  run: string;
  install: string;
}

export interface Project {
  name: string;
  /** Absolute working directory, e.g. /home/dev/orders-api. */
  root: string;
  lang: Lang;
  /** Domain nouns this project is about (its modules). */
  modules: string[];
  /** Source files relative to root. */
  files: string[];
  tests: string[];
  dirs: string[];
  fns: string[];
  classes: string[];
  consts: string[];
  envs: string[];
  errors: string[];
  libs: string[];
  branches: string[];
  commands: Commands;
  ext: string;
}

export const HOME = '/home/dev';

const COMMANDS: Record<Lang, Commands[]> = {
  ts: [
    {
      test: 'npm test',
      build: 'npm run build',
      lint: 'npx eslint .',
      typecheck: 'npx tsc --noEmit',
      run: 'npm run dev',
      install: 'npm install',
    },
    {
      test: 'pnpm vitest run',
      build: 'pnpm build',
      lint: 'pnpm lint',
      typecheck: 'pnpm tsc -p tsconfig.json --noEmit',
      run: 'pnpm dev',
      install: 'pnpm install',
    },
    {
      test: 'npx jest --runInBand',
      build: 'yarn build',
      lint: 'npx biome check .',
      typecheck: 'yarn typecheck',
      run: 'yarn start',
      install: 'yarn install',
    },
  ],
  py: [
    {
      test: 'pytest -q',
      build: 'python -m build',
      lint: 'ruff check .',
      typecheck: 'mypy app',
      run: 'uvicorn app.main:app --reload',
      install: 'poetry install',
    },
    {
      test: 'python -m pytest -x tests',
      build: 'make build',
      lint: 'ruff check --fix .',
      typecheck: 'pyright',
      run: 'python -m app',
      install: 'pip install -r requirements.txt',
    },
  ],
  go: [
    {
      test: 'go test ./...',
      build: 'go build ./...',
      lint: 'golangci-lint run',
      typecheck: 'go vet ./...',
      run: 'go run ./cmd/server',
      install: 'go mod download',
    },
  ],
  rs: [
    {
      test: 'cargo test',
      build: 'cargo build --release',
      lint: 'cargo clippy -- -D warnings',
      typecheck: 'cargo check',
      run: 'cargo run',
      install: 'cargo fetch',
    },
  ],
};

const LANG_LIBS: Record<Lang, readonly string[]> = {
  ts: [
    'react',
    'express',
    'fastify',
    'hono',
    'prisma',
    'drizzle',
    'zod',
    'vitest',
    'jest',
    'next.js',
    'vite',
    'bullmq',
    'pino',
    'axios',
    'playwright',
    'tanstack-query',
    'knex',
    'typeorm',
    'date-fns',
    'luxon',
    'msw',
    'supertest',
  ],
  py: [
    'django',
    'flask',
    'fastapi',
    'pydantic',
    'sqlalchemy',
    'alembic',
    'celery',
    'pytest',
    'httpx',
    'ruff',
    'uvicorn',
    'pandas',
  ],
  go: ['gin', 'gorm', 'cobra', 'sqlc', 'zap', 'testify', 'pgx', 'chi', 'viper'],
  rs: ['tokio', 'serde', 'axum', 'clap', 'sqlx', 'tracing', 'reqwest', 'anyhow', 'thiserror'],
};

export function parts(word: string): string[] {
  return word.split(/[_\s-]+/).filter(Boolean);
}

export function cap(word: string): string {
  return word.length === 0 ? word : word[0].toUpperCase() + word.slice(1);
}

export function camel(words: string[]): string {
  const ps = words.flatMap(parts);
  return ps.map((p, i) => (i === 0 ? p : cap(p))).join('');
}

export function pascal(words: string[]): string {
  return words.flatMap(parts).map(cap).join('');
}

export function snake(words: string[]): string {
  return words.flatMap(parts).join('_');
}

export function kebab(words: string[]): string {
  return words.flatMap(parts).join('-');
}

export function verbBase(entry: string): string {
  const i = entry.indexOf(':');
  return i < 0 ? entry : entry.slice(0, i);
}

/** Identifier in the project's language style (function or variable). */
export function ident(lang: Lang, words: string[], exported = false): string {
  if (lang === 'py' || lang === 'rs') return snake(words);
  if (lang === 'go' && exported) return pascal(words);
  return camel(words);
}

const memo = new Map<string, string>();

/** ident() for one lexicon word, memoized: text generation asks for the same few thousand words. */
export function identWord(lang: Lang, word: string): string {
  const key = `${lang}\u0000${word}`;
  let v = memo.get(key);
  if (v === undefined) {
    v = ident(lang, [word]);
    memo.set(key, v);
  }
  return v;
}

/** pascal() for one word, memoized. */
export function pascalWord(word: string): string {
  const key = `P\u0000${word}`;
  let v = memo.get(key);
  if (v === undefined) {
    v = pascal([word]);
    memo.set(key, v);
  }
  return v;
}

function uniq(items: string[]): string[] {
  return [...new Set(items)];
}

function createProject(r: Random, index: number, taken: Set<string>): Project {
  const langRoll = r.next();
  const lang: Lang = langRoll < 0.55 ? 'ts' : langRoll < 0.8 ? 'py' : langRoll < 0.93 ? 'go' : 'rs';
  let name = '';
  for (let tries = 0; tries < 50 && (name === '' || taken.has(name)); tries++) {
    const style = r.int(3);
    if (style === 0) name = `${r.zipf(DOMAIN_NOUNS)}-${r.pick(PROJECT_SUFFIXES)}`;
    else if (style === 1) name = `${r.pick(CODENAMES)}`;
    else name = `${r.pick(CODENAMES)}-${r.pick(PROJECT_SUFFIXES)}`;
    name = name.replace(/_/g, '-');
  }
  if (taken.has(name)) name = `${name}-${index}`;
  taken.add(name);

  const moduleCount = r.range(5, 12);
  const modules: string[] = [];
  while (modules.length < moduleCount) {
    const m = r.chance(0.7) ? r.zipf(DOMAIN_NOUNS) : r.pick(DOMAIN_NOUNS);
    if (!modules.includes(m)) modules.push(m);
  }
  const ext = lang;
  const srcRoot = lang === 'py' ? 'app' : lang === 'go' ? 'internal' : 'src';
  const files: string[] = [];
  const tests: string[] = [];
  const dirs = uniq([srcRoot, ...modules.map((m) => `${srcRoot}/${snake([m])}`)]);
  for (const m of modules) {
    const n = r.range(3, 8);
    for (let i = 0; i < n; i++) {
      const base = r.chance(0.5) ? [m, r.zipf(TECH_NOUNS)] : [r.zipf(DOMAIN_NOUNS), r.zipf(TECH_NOUNS)];
      const stem = lang === 'ts' ? (r.chance(0.7) ? kebab(base) : camel(base)) : snake(base);
      const dir = `${srcRoot}/${snake([m])}`;
      files.push(`${dir}/${stem}.${ext}`);
      if (r.chance(0.6)) {
        if (lang === 'ts') tests.push(`${dir}/${stem}.test.ts`);
        else if (lang === 'py') tests.push(`tests/${snake([m])}/test_${stem}.py`);
        else if (lang === 'go') tests.push(`${dir}/${stem}_test.go`);
        else tests.push(`tests/${stem}.rs`);
      }
    }
  }
  if (tests.length === 0) tests.push(lang === 'py' ? 'tests/test_app.py' : `${srcRoot}/app.test.${ext}`);
  const extraFiles =
    lang === 'ts'
      ? ['package.json', 'tsconfig.json', 'src/index.ts', 'src/config.ts', '.env.example', 'README.md']
      : lang === 'py'
        ? ['pyproject.toml', 'app/main.py', 'app/settings.py', '.env.example', 'README.md']
        : lang === 'go'
          ? ['go.mod', 'cmd/server/main.go', 'internal/config/config.go', 'Makefile', 'README.md']
          : ['Cargo.toml', 'src/main.rs', 'src/lib.rs', 'src/config.rs', 'README.md'];
  files.push(...extraFiles);

  const fns: string[] = [];
  const fnCount = r.range(40, 120);
  for (let i = 0; i < fnCount; i++) {
    const noun = r.chance(0.6) ? r.pick(modules) : r.zipf(DOMAIN_NOUNS);
    const words = [verbBase(r.zipf(VERBS)), noun];
    if (r.chance(0.4)) words.push(r.zipf(TECH_NOUNS));
    fns.push(ident(lang, words, r.chance(0.5)));
  }
  const classes: string[] = [];
  for (let i = 0; i < r.range(15, 40); i++) {
    const noun = r.chance(0.7) ? r.pick(modules) : r.zipf(DOMAIN_NOUNS);
    classes.push(pascal([noun, r.zipf(TECH_NOUNS)]));
  }
  const consts: string[] = [];
  for (let i = 0; i < r.range(8, 20); i++) {
    const w = [
      r.pick(['max', 'min', 'default', 'enable', 'disable', 'use']),
      r.pick(modules),
      r.zipf(TECH_NOUNS),
    ];
    consts.push(snake(w).toUpperCase());
  }
  const envs = uniq(
    Array.from({ length: r.range(5, 12) }, () =>
      snake([
        r.chance(0.5) ? r.pick(modules) : r.zipf(TECH_NOUNS),
        r.pick(['url', 'host', 'port', 'timeout_ms', 'enabled', 'region', 'bucket', 'dsn']),
      ]).toUpperCase(),
    ),
  );
  const errors = uniq([
    ...Array.from(
      { length: r.range(4, 10) },
      () => `ERR_${snake([r.pick(modules)]).toUpperCase()}_${r.pick(ERROR_STATES)}`,
    ),
    ...Array.from({ length: r.range(4, 8) }, () => r.zipf(ERROR_CODES)),
  ]);
  const libs = uniq([
    ...Array.from({ length: r.range(4, 8) }, () => r.pick(LANG_LIBS[lang])),
    r.zipf(LIBRARIES),
    r.zipf(LIBRARIES),
  ]);
  const branches = uniq([
    'main',
    ...Array.from(
      { length: r.range(3, 8) },
      () => `${r.pick(['feat', 'fix', 'chore', 'refactor'])}/${kebab([r.pick(modules), r.zipf(TECH_NOUNS)])}`,
    ),
  ]);
  return {
    name,
    root: `${HOME}/${name}`,
    lang,
    modules,
    files,
    tests,
    dirs,
    fns: uniq(fns),
    classes: uniq(classes),
    consts: uniq(consts),
    envs,
    errors,
    libs,
    branches,
    commands: r.pick(COMMANDS[lang]),
    ext,
  };
}

/** Deterministic projects for a seed; the first ones are the busiest (sessions pick them Zipf-like). */
export function createWorld(seed: number, count: number): Project[] {
  const r = new Random(seed ^ 0x9e3779b9);
  const taken = new Set<string>();
  return Array.from({ length: count }, (_, i) => createProject(r, i, taken));
}
