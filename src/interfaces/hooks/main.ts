/**
 * `tapedeck hook <agent> <event>`: the process a host starts for each hook. Lean on purpose — this
 * module and what it imports at the top never load the MCP SDK, commander, the HTTP server or the
 * store; the store is opened only by a session start whose cached bundle is out of date.
 *
 * The contract: read the host's JSON on stdin, print exactly one valid JSON answer on stdout, exit
 * 0 — also when stdin is empty or malformed and when anything inside fails (the reason goes to
 * stderr and ~/.tapedeck/hooks.log). A timer answers with the safe default and exits when the budget
 * is spent, so the agent is never held longer than that.
 */
import { readdirSync } from 'node:fs';
import { AGENT_IDS, type AgentId, isAgentId } from '../../core/types.js';
import {
  type Action,
  contextOutput,
  isAfterCompaction,
  readInput,
  safeDefault,
  withNotice,
} from './hosts.js';
import { emit, readStdin } from './io.js';
import { createLogger, type Logger } from './log.js';
import { type HookPaths, readHookSettings } from './settings.js';

/**
 * From process start. A save only writes one small file, so its budget is generous (under the
 * 10 s hosts are given): on a machine so loaded that Node itself starts slowly, finishing the
 * enqueue beats losing the capture. A session start waits for context at most 3 s.
 */
const BUDGET_MS: Record<Action, number> = {
  context: 3000,
  'context-first': 3000,
  tool: 2000,
  save: 8000,
  'save-if-idle': 8000,
  none: 1000,
};

interface Args {
  agent?: string;
  event?: string;
  home?: string;
}

function parseArgs(argv: string[]): Args {
  const out: Args = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--home') out.home = argv[++i];
    else if (a.startsWith('--home=')) out.home = a.slice(7);
    else rest.push(a);
  }
  [out.agent, out.event] = rest;
  return out;
}

/** Anything in the queue, failed/ or bad/ (three directory reads). */
function hasQueueFiles(p: HookPaths): boolean {
  for (const dir of [p.queue, p.failed, p.bad]) {
    try {
      if (readdirSync(dir).some((f) => f.endsWith('.json'))) return true;
    } catch {
      // no such folder: nothing there
    }
  }
  return false;
}

/**
 * Milliseconds since the process started, as performance.now() counts them: the global
 * `performance` loads perf_hooks on first use (~1 ms of a hook's start), process.uptime() is there.
 */
const sinceStart = () => process.uptime() * 1000;

function finish(code = 0): never {
  process.exit(code);
}

/** Run one hook; `argv` is what follows `hook` on the command line. */
export async function runHook(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  let log: Logger = (level, message) => process.stderr.write(`tapedeck: ${level}: ${message}\n`);
  let fallback: unknown = {};
  const fail = (e: unknown) => {
    const msg = (e as Error)?.stack ?? String(e);
    log('error', `internal failure, answered with the safe default: ${msg}`);
    emit(fallback);
    finish();
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  try {
    const settings = readHookSettings(process.env, args.home);
    log = createLogger(settings.paths.log, `${args.agent ?? '?'} ${args.event ?? '?'}`);
    if (settings.configError) log('warn', `${settings.configError}; using defaults`);
    if (!args.agent || !isAgentId(args.agent) || !args.event) {
      log('error', `usage: tapedeck hook <${AGENT_IDS.join('|')}> <event>; got "${argv.join(' ')}"`);
      emit({});
      return finish();
    }
    const agent: AgentId = args.agent;
    const probe = readInput(agent, args.event, '', process.env);
    fallback = safeDefault(probe);
    const budget = Number(process.env.TAPEDECK_HOOK_BUDGET_MS) || BUDGET_MS[probe.action];
    const remaining = () => budget - sinceStart();
    const outOfTime = () => {
      log('warn', `the ${budget} ms budget ran out; answered with the safe default`);
      emit(fallback);
      return finish();
    };
    // Spent already (starting took it all): answer at once, not after the work it has no time for.
    if (remaining() <= 0) outOfTime();
    const timer = setTimeout(outOfTime, remaining());
    timer.unref();

    const stdin = await readStdin(Math.min(1000, Math.max(50, remaining() / 2)));
    const input = readInput(agent, args.event, stdin, process.env);
    if (input.problem && input.action !== 'none')
      log('warn', `${input.problem}; doing what can be done without it`);

    switch (input.action) {
      case 'context-first':
      case 'context': {
        const { contextFor, firstToInject } = await import('./context.js');
        if (input.action === 'context-first') {
          if (input.invocationNum !== undefined && input.invocationNum !== 0) break;
          if (input.sessionId && !firstToInject(settings, input.sessionId)) break;
        }
        input.cwd ??= process.cwd();
        // What the compaction dropped comes first: it is what the agent needs to carry on.
        const reanchor = isAfterCompaction(input)
          ? await (await import('./reanchor.js')).reanchorText(input, log)
          : undefined;
        const found = await contextFor(settings, input, log, remaining);
        const ctx = reanchor
          ? { ...found, text: [reanchor, found.text].filter(Boolean).join('\n\n') }
          : found;
        log(
          'info',
          `context from ${ctx.origin}${ctx.text ? '' : ' (nothing to inject)'} in ${Math.round(sinceStart())} ms`,
        );
        // Only when something is queued or set aside: the common start loads neither module.
        const pending = hasQueueFiles(settings.paths);
        const notice =
          pending || settings.apiUrl ? (await import('./notice.js')).problemNotice(settings) : undefined;
        if (notice) log('warn', notice);
        emit(ctx.text ? contextOutput(input, ctx.text, notice) : withNotice(input, {}, notice));
        if (pending) (await import('./save.js')).kickWorker(settings, log);
        // After the answer: the installed skills are refreshed while the session already runs.
        (await import('./skill-sync.js')).kickSkillSync(settings, input.cwd, log);
        break;
      }
      case 'tool': {
        const { decideTool } = await import('./tool-policy.js');
        emit(decideTool(input.toolName, input.transcriptPath, input.toolAction));
        break;
      }
      case 'save':
      case 'save-if-idle': {
        // Queue first, answer second: a save that could not be queued is told to the user.
        const { queueSave } = await import('./save.js');
        const outcome = queueSave(settings, input, log);
        emit(withNotice(input, {}, outcome.notice));
        break;
      }
      case 'none':
        break;
    }
    emit({});
    clearTimeout(timer);
    finish();
  } catch (e) {
    fail(e);
  }
}
