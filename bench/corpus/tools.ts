/**
 * Tool calls and their outputs, agent-neutral: test runs, compiler and linter errors, git, logs,
 * file reads, greps and edits. Writers render them in each agent's shape. Output sizes follow a
 * long-tailed mix (most under 2 KB, a few up to 20 KB) because tool output dominates transcript bytes.
 */
import type { Random } from './prng.js';
import { T, type TextGen } from './text.js';

export type ToolKind = 'shell' | 'read' | 'edit' | 'write' | 'grep' | 'list';

export interface ToolCall {
  kind: ToolKind;
  /** shell: the command line. */
  command?: string;
  /** read/edit/write: file relative to the project root; list: directory. */
  path?: string;
  /** grep: the pattern. */
  pattern?: string;
  oldText?: string;
  newText?: string;
  /** write: the new file body. */
  content?: string;
  /** Short human description (Claude `description`, Gemini run_shell_command). */
  description?: string;
  /** Raw output; read outputs are the file's lines without numbers. */
  output: string;
  isError: boolean;
  exitCode: number;
  durationMs: number;
  /** shell: started in the background (Antigravity RUNNING then a SYSTEM_MESSAGE). */
  background?: boolean;
  /** Start time (ms since epoch), set by the session builder. */
  t: number;
}

/** Long-tailed output size in bytes: ~70% 100 B–2 KB, ~25% 2–8 KB, ~5% 8–20 KB. */
export function outputSize(r: Random): number {
  const x = r.next();
  if (x < 0.7) return Math.round(r.logUniform(100, 2000));
  if (x < 0.95) return Math.round(r.logUniform(2000, 8000));
  return Math.round(r.logUniform(8000, 20000));
}

function testName(g: TextGen): string {
  const r = g.r;
  const x = r.int(4);
  const n = g.w('n');
  if (x === 0) return `${g.verb().third} ${g.w('a')} ${g.w('ns')}`;
  if (x === 1) return `should ${g.verb().base} the ${n} ${g.w('t')}`;
  if (x === 2) return `returns ${g.w('a')} ${g.w('ns')} when ${n} is ${g.w('a')}`;
  return `${g.verb().gerund} ${n} with ${g.w('a')} ${g.w('ts')}`;
}

function stackLines(g: TextGen, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(`    at ${g.fn()} (${g.p.root}/${g.path()}:${g.r.range(1, 400)}:${g.r.range(1, 60)})`);
  if (g.p.lang === 'ts')
    out.push('    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)');
  return out;
}

function testOutput(g: TextGen, size: number, fail: boolean): string {
  const r = g.r;
  const p = g.p;
  const lines: string[] = [];
  let len = 0;
  let passed = 0;
  let failed = 0;
  const push = (l: string) => {
    lines.push(l);
    len += l.length + 1;
  };
  const runner = p.lang === 'ts' ? (p.commands.test.includes('jest') ? 'jest' : 'vitest') : p.lang;
  if (runner === 'py')
    push(
      `============================= test session starts ==============================\nplatform linux -- Python 3.12.${r.range(0, 8)}, pytest-8.${r.range(0, 3)}.${r.range(0, 4)}\nrootdir: ${p.root}\ncollected ${r.range(20, 900)} items\n`,
    );
  if (runner === 'vitest') push(`\n RUN  v${r.range(1, 3)}.${r.range(0, 6)}.${r.range(0, 9)} ${p.root}\n`);
  while (len < size) {
    const file = g.testPath();
    const count = r.range(1, 40);
    const bad = fail && (failed === 0 || r.chance(0.15));
    passed += bad ? count - 1 : count;
    if (bad) failed++;
    if (runner === 'vitest') {
      push(` ${bad ? '❯' : '✓'} ${file} (${count} tests${bad ? ' | 1 failed' : ''}) ${r.range(2, 900)}ms`);
      if (bad) {
        push(`   × ${g.w('c')} > ${testName(g)} ${r.range(1, 90)}ms`);
        push(`     → expected ${r.range(0, 99)} to be ${r.range(0, 99)} // Object.is equality`);
      }
    } else if (runner === 'jest') {
      push(`${bad ? 'FAIL' : 'PASS'} ${file} (${(r.next() * 4).toFixed(3)} s)`);
      if (bad) {
        push(`  ● ${g.w('c')} › ${testName(g)}\n`);
        push(
          `    expect(received).toEqual(expected) // deep equality\n\n    Expected: "${g.w('a')}"\n    Received: "${g.w('a')}"\n`,
        );
        for (const l of stackLines(g, r.range(1, 4))) push(l);
      }
    } else if (runner === 'py') {
      const dots = `${'.'.repeat(Math.max(0, count - (bad ? 1 : 0)))}${bad ? 'F' : ''}`;
      push(
        `${file} ${dots}${' '.repeat(Math.max(1, 60 - file.length - dots.length))}[${String(r.range(1, 100)).padStart(3)}%]`,
      );
    } else if (runner === 'go') {
      if (bad) {
        push(`--- FAIL: Test${g.w('F')} (0.${r.range(10, 99)}s)`);
        push(
          `    ${file.split('/').pop()}:${r.range(10, 300)}: expected ${g.w('a')} ${g.w('n')}, got ${g.w('a')}`,
        );
        push(`FAIL\t${p.name}/${file.slice(0, file.lastIndexOf('/'))}\t0.${r.range(100, 999)}s`);
      } else push(`ok  \t${p.name}/${file.slice(0, file.lastIndexOf('/'))}\t0.${r.range(100, 999)}s`);
    } else {
      for (let i = 0; i < Math.min(count, 6); i++) {
        push(
          `test ${g.w('mod')}::tests::${testName(g)
            .replace(/[^a-z0-9]+/gi, '_')
            .toLowerCase()} ... ${bad && i === 0 ? 'FAILED' : 'ok'}`,
        );
      }
    }
    if (r.chance(0.05)) push(g.logLine());
  }
  if (runner === 'vitest') {
    push(
      `\n Test Files  ${failed ? `${failed} failed | ` : ''}${Math.max(1, Math.round(passed / 12))} passed (${Math.round(passed / 12) + failed})`,
    );
    push(`      Tests  ${failed ? `${failed} failed | ` : ''}${passed} passed (${passed + failed})`);
    push(`   Duration  ${(r.next() * 20 + 0.5).toFixed(2)}s`);
  } else if (runner === 'jest') {
    push(`\nTests:       ${failed ? `${failed} failed, ` : ''}${passed} passed, ${passed + failed} total`);
    push(`Time:        ${(r.next() * 20 + 0.5).toFixed(3)} s`);
  } else if (runner === 'py') {
    if (failed)
      push(
        `FAILED ${g.testPath()}::test_${testName(g)
          .replace(/[^a-z0-9]+/gi, '_')
          .toLowerCase()} - AssertionError: ${g.sentence(T.assistant)}`,
      );
    push(`${failed ? `${failed} failed, ` : ''}${passed} passed in ${(r.next() * 20 + 0.2).toFixed(2)}s`);
  } else if (runner === 'rs') {
    push(
      `\ntest result: ${failed ? 'FAILED' : 'ok'}. ${passed} passed; ${failed} failed; 0 ignored; 0 measured; 0 filtered out`,
    );
  }
  return lines.join('\n');
}

function typecheckOutput(g: TextGen, size: number, fail: boolean): string {
  if (!fail) return g.r.chance(0.6) ? '' : `Found 0 errors. Watching for file changes.`;
  const r = g.r;
  const lines: string[] = [];
  let len = 0;
  const target = Math.min(size, 6000);
  while (len < target) {
    let l: string;
    if (g.p.lang === 'ts') {
      const code = r.pick(['TS2345', 'TS2322', 'TS2339', 'TS7006', 'TS18048', 'TS2532', 'TS2769']);
      l = `${g.path()}(${r.range(1, 400)},${r.range(1, 60)}): error ${code}: ${r.pick([
        `Argument of type '${g.w('C')}' is not assignable to parameter of type '${g.w('C')}Input'.`,
        `Property '${g.w('nv')}' does not exist on type '${g.w('c')}'.`,
        `'${g.w('nv')}' is possibly 'undefined'.`,
        `Parameter '${g.w('nv')}' implicitly has an 'any' type.`,
      ])}`;
    } else if (g.p.lang === 'py') {
      l = `${g.path()}:${r.range(1, 400)}: error: Incompatible types in assignment (expression has type "${g.w('C')} | None", variable has type "${g.w('C')}")  [assignment]`;
    } else if (g.p.lang === 'go') {
      l = `${g.path()}:${r.range(1, 400)}:${r.range(1, 60)}: ${g.w('nv')} declared and not used`;
    } else {
      l = `error[E0308]: mismatched types\n  --> ${g.path()}:${r.range(1, 400)}:${r.range(1, 60)}\n   |\n   = note: expected struct \`${g.w('C')}\`, found \`Option<${g.w('C')}>\``;
    }
    lines.push(l);
    len += l.length + 1;
  }
  lines.push(
    g.p.lang === 'ts'
      ? `\nFound ${lines.length} errors in ${r.range(1, lines.length)} files.`
      : `Found ${lines.length} errors`,
  );
  return lines.join('\n');
}

function lintOutput(g: TextGen, size: number, fail: boolean): string {
  if (!fail && g.r.chance(0.7)) return g.p.lang === 'py' ? 'All checks passed!' : '';
  const r = g.r;
  const lines: string[] = [];
  let len = 0;
  const target = Math.min(size, 5000);
  while (len < target) {
    const file = g.path();
    lines.push(`\n${g.p.root}/${file}`);
    for (let i = 0; i < r.range(1, 4); i++) {
      const rule = r.pick([
        'no-unused-vars',
        '@typescript-eslint/no-explicit-any',
        'prefer-const',
        'no-console',
        'complexity',
        'F401',
        'E501',
        'B008',
      ]);
      const l = `  ${r.range(1, 400)}:${r.range(1, 60)}  ${r.chance(0.7) ? 'warning' : 'error'}  '${g.w('nv')}' ${r.pick(['is assigned a value but never used', 'is defined but never used', 'should be const', 'has too many branches'])}  ${rule}`;
      lines.push(l);
      len += l.length + 1;
    }
    len += file.length;
  }
  lines.push(`\n✖ ${lines.length} problems (${r.range(0, 9)} errors, ${r.range(1, 40)} warnings)`);
  return lines.join('\n');
}

function buildOutput(g: TextGen, size: number): string {
  const r = g.r;
  const lines = [
    `> ${g.p.name}@${g.w('ver')} build`,
    `> ${g.p.lang === 'ts' ? 'tsc -p tsconfig.build.json && vite build' : g.p.commands.build}`,
    '',
  ];
  let len = 0;
  const target = Math.min(size, 8000);
  while (len < target) {
    const l = r.chance(0.7)
      ? `dist/assets/${g.w('mod')}-${r.hex(8)}.js  ${(r.next() * 300).toFixed(2)} kB │ gzip: ${(r.next() * 90).toFixed(2)} kB`
      : `(!) ${g.sentence(T.assistant)}`;
    lines.push(l);
    len += l.length + 1;
  }
  lines.push(`✓ built in ${(r.next() * 30 + 1).toFixed(2)}s`);
  return lines.join('\n');
}

function gitOutput(g: TextGen, size: number): { command: string; output: string } {
  const r = g.r;
  const x = r.int(3);
  if (x === 0) {
    const files = Array.from({ length: r.range(1, 9) }, () => `\tmodified:   ${g.path()}`);
    return {
      command: 'git status',
      output: `On branch ${g.w('br')}\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${files.join('\n')}\n\nno changes added to commit (use "git add" and/or "git commit -a")`,
    };
  }
  if (x === 1) {
    const lines = Array.from({ length: r.range(5, 30) }, () => `${r.hex(7)} ${g.commit()}`);
    return { command: `git log --oneline -${lines.length}`, output: lines.join('\n') };
  }
  const out: string[] = [];
  let len = 0;
  while (len < size) {
    const file = g.path();
    out.push(
      `diff --git a/${file} b/${file}`,
      `index ${r.hex(7)}..${r.hex(7)} 100644`,
      `--- a/${file}`,
      `+++ b/${file}`,
    );
    const at = r.range(1, 300);
    out.push(`@@ -${at},${r.range(3, 12)} +${at},${r.range(3, 14)} @@`);
    for (const l of g.code(r.range(2, 8))) {
      const mark = r.chance(0.3) ? '-' : r.chance(0.4) ? '+' : ' ';
      out.push(`${mark}${l}`);
      len += l.length + 2;
    }
    len += file.length * 4;
  }
  return {
    command: r.chance(0.5) ? 'git diff' : `git diff --stat HEAD~1 && git diff HEAD~1`,
    output: out.join('\n'),
  };
}

function logOutput(g: TextGen, size: number): string {
  const lines: string[] = [];
  let len = 0;
  while (len < size) {
    const l = g.logLine();
    lines.push(l);
    len += l.length + 1;
    if (g.r.chance(0.03)) for (const s of stackLines(g, g.r.range(2, 6))) lines.push(s);
  }
  return lines.join('\n');
}

function installOutput(g: TextGen): string {
  const r = g.r;
  if (g.p.lang === 'ts')
    return `\nadded ${r.range(1, 400)} packages, removed ${r.range(0, 20)} packages, and audited ${r.range(400, 1800)} packages in ${r.range(2, 60)}s\n\n${r.range(50, 300)} packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`;
  if (g.p.lang === 'py')
    return `Installing dependencies from lock file\n\nPackage operations: ${r.range(1, 30)} installs, ${r.range(0, 5)} updates, 0 removals\n\n  - Installing ${g.lib()} (${g.w('ver')})\n  - Updating ${g.lib()} (${g.w('ver')} -> ${g.w('ver')})`;
  return `go: downloading ${g.lib()} v${g.w('ver')}\ngo: downloading ${g.lib()} v${g.w('ver')}`;
}

function curlOutput(g: TextGen, size: number): { command: string; output: string } {
  const r = g.r;
  const mod = g.w('mod');
  const items: string[] = [];
  let len = 0;
  while (len < Math.min(size, 6000)) {
    const item = `{"id":"${r.hex(12)}","${g.w('nv')}":${r.range(0, 9999)},"status":"${g.w('a')}","${g.w('nv')}":"${g.w('n')}","updated_at":"${new Date(g.clock - r.range(0, 9e8)).toISOString()}"}`;
    items.push(item);
    len += item.length;
  }
  const fail = r.chance(0.2);
  return {
    command: `curl -s localhost:${r.pick([3000, 8000, 8080, 5173, 4000])}/api/${mod}${r.chance(0.5) ? `?limit=${r.range(5, 100)}` : ''}`,
    output: fail
      ? `{"error":{"code":"${g.error()}","message":"${g.sentence(T.assistant).replace(/["`\\]/g, '')}"}}`
      : `{"data":[${items.join(',')}],"next_cursor":"${r.base62(16)}"}`,
  };
}

function grepOutput(g: TextGen, size: number, pattern: string): string {
  const r = g.r;
  const lines: string[] = [];
  let len = 0;
  const target = Math.min(size, 6000);
  while (len < target) {
    const body = g.code(1)[0].trim();
    const l = `${g.path()}:${r.range(1, 400)}:${body.includes(pattern) ? body : `${body} // ${pattern}`}`;
    lines.push(l);
    len += l.length + 1;
  }
  return lines.join('\n');
}

function listOutput(g: TextGen, dir: string): string {
  const inDir = g.p.files.filter((f) => f.startsWith(`${dir}/`));
  const files = inDir.length > 0 ? inDir : g.p.files.slice(0, 12);
  return files.join('\n');
}

/** A shell call with a plausible command and output. */
function shellCall(g: TextGen, size: number): ToolCall {
  const r = g.r;
  const p = g.p;
  const x = r.next();
  let command: string;
  let output: string;
  let isError = false;
  let description: string;
  if (x < 0.34) {
    isError = r.chance(0.3);
    command = r.chance(0.7) ? p.commands.test : `${p.commands.test} ${g.testPath()}`;
    output = testOutput(g, size, isError);
    description = 'Run the test suite';
  } else if (x < 0.44) {
    isError = r.chance(0.35);
    command = p.commands.typecheck;
    output = typecheckOutput(g, size, isError);
    description = 'Type-check the project';
  } else if (x < 0.5) {
    isError = r.chance(0.3);
    command = p.commands.lint;
    output = lintOutput(g, size, isError);
    description = 'Lint the code';
  } else if (x < 0.56) {
    command = p.commands.build;
    output = buildOutput(g, size);
    description = 'Build the project';
  } else if (x < 0.72) {
    const git = gitOutput(g, size);
    command = git.command;
    output = git.output;
    description = 'Inspect git state';
  } else if (x < 0.8) {
    command = `tail -n ${r.pick([50, 100, 200, 500])} logs/${g.w('mod')}.log`;
    output = logOutput(g, size);
    description = 'Read recent logs';
  } else if (x < 0.86) {
    const c = curlOutput(g, size);
    command = c.command;
    output = c.output;
    description = 'Call the local API';
  } else if (x < 0.9) {
    command = p.commands.install;
    output = installOutput(g);
    description = 'Install dependencies';
  } else if (x < 0.95) {
    const pattern = g.fn();
    command = `rg -n "${pattern}" ${r.pick(p.dirs)}`;
    output = grepOutput(g, size, pattern);
    description = `Find usages of ${pattern}`;
  } else {
    const pod = `${p.name}-${r.hex(10)}-${r.base62(5).toLowerCase()}`;
    command = r.chance(0.5)
      ? `kubectl logs ${pod} --tail=200`
      : `docker compose logs --tail=200 ${g.w('mod')}`;
    output = logOutput(g, size);
    isError = r.chance(0.1);
    description = 'Check container logs';
  }
  if (isError && output === '') output = `${g.error()}: ${g.sentence(T.assistant)}`;
  return {
    kind: 'shell',
    command,
    output,
    description,
    isError,
    exitCode: isError ? r.pick([1, 1, 1, 2, 127]) : 0,
    durationMs: Math.round(r.logUniform(40, 90000)),
    background: r.chance(0.03),
    t: 0,
  };
}

/** One tool call, with output, drawn from a realistic mix. */
export function makeToolCall(g: TextGen): ToolCall {
  const r = g.r;
  const x = r.next();
  const size = outputSize(r);
  const durationMs = Math.round(r.logUniform(5, 400));
  if (x < 0.4) return shellCall(g, size);
  if (x < 0.65) {
    const path = g.path();
    const missing = r.chance(0.03);
    return {
      kind: 'read',
      path,
      output: missing ? `File does not exist: ${path}` : g.codeFile(size).join('\n'),
      isError: missing,
      exitCode: missing ? 1 : 0,
      durationMs,
      t: 0,
    };
  }
  if (x < 0.82) {
    const path = g.path();
    const oldText = g.code(r.range(0, 4)).join('\n');
    const newText = g.code(r.range(0, 6)).join('\n');
    const failed = r.chance(0.05);
    return {
      kind: 'edit',
      path,
      oldText,
      newText,
      output: failed
        ? `String to replace not found in file.\nString: ${oldText.split('\n')[0]}`
        : `@@ -${r.range(1, 300)},${r.range(2, 9)} +${r.range(1, 300)},${r.range(2, 12)} @@\n${newText}`,
      isError: failed,
      exitCode: failed ? 1 : 0,
      durationMs,
      t: 0,
    };
  }
  if (x < 0.87) {
    const path = r.chance(0.5) ? g.testPath() : g.path();
    return {
      kind: 'write',
      path,
      content: g.codeFile(Math.min(size, 4000)).join('\n'),
      output: `File created successfully at: ${g.p.root}/${path}`,
      isError: false,
      exitCode: 0,
      durationMs,
      t: 0,
    };
  }
  if (x < 0.96) {
    const pattern = r.chance(0.6) ? g.fn() : r.chance(0.5) ? g.error() : g.w('n');
    return {
      kind: 'grep',
      pattern,
      path: r.pick(g.p.dirs),
      output: r.chance(0.1) ? 'No matches found' : grepOutput(g, Math.min(size, 3000), pattern),
      isError: false,
      exitCode: 0,
      durationMs,
      t: 0,
    };
  }
  const dir = r.pick(g.p.dirs);
  return {
    kind: 'list',
    path: dir,
    output: listOutput(g, dir),
    isError: false,
    exitCode: 0,
    durationMs,
    t: 0,
  };
}

/**
 * A multi-megabyte shell output (a verbose build or a log dump), built by repeating a generated
 * block so it costs little to produce. Only the largest corpora get a few.
 */
export function hugeToolCall(g: TextGen, bytes: number): ToolCall {
  const block = `${logOutput(g, 64 * 1024)}\n`;
  const output = block.repeat(Math.max(1, Math.ceil(bytes / block.length)));
  return {
    kind: 'shell',
    command: `cat logs/${g.w('mod')}-${g.r.range(1, 28)}.log`,
    output,
    description: 'Dump the full log',
    isError: false,
    exitCode: 0,
    durationMs: g.r.range(200, 4000),
    t: 0,
  };
}
