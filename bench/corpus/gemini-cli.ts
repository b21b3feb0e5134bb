/**
 * Gemini CLI: ~/.gemini/tmp/<sha256(project root)>/chats/session-<time>-<id8>.json, a whole
 * conversation record pretty-printed with two spaces; a quarter of the sessions use the newer
 * append-only .jsonl (metadata line, message lines rewritten in full when their tool calls
 * complete, `$set` patches and the occasional `$rewindTo` that discards an abandoned exchange).
 * Tool calls live inside the gemini message with their results (functionResponse parts).
 */
import { createHash } from 'node:crypto';
import type { ModelTurn, Session } from './session.js';
import { T } from './text.js';
import type { ToolCall } from './tools.js';
import { iso, JsonLines, type WriterOutput } from './writer.js';

const MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-3-pro-preview'];

const hashes = new Map<string, string>();
export function projectHash(root: string): string {
  let h = hashes.get(root);
  if (!h) {
    h = createHash('sha256').update(root).digest('hex');
    hashes.set(root, h);
  }
  return h;
}

function toolCall(
  s: Session,
  c: ToolCall,
): { executing: Record<string, unknown>; done: Record<string, unknown> } {
  const root = s.project.root;
  const abs = `${root}/${c.path ?? ''}`;
  let name: string;
  let displayName: string;
  let args: Record<string, unknown>;
  let output = c.output;
  switch (c.kind) {
    case 'shell':
      name = 'run_shell_command';
      displayName = 'Shell';
      args = { command: c.command, description: c.description };
      output = `Command: ${c.command}\nDirectory: (root)\nOutput: ${c.output || '(empty)'}\nError: (none)\nExit Code: ${c.exitCode}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${1000 + (c.durationMs % 60000)}`;
      break;
    case 'read':
      name = 'read_file';
      displayName = 'ReadFile';
      args = { absolute_path: abs };
      break;
    case 'edit':
      name = 'replace';
      displayName = 'Edit';
      args = { file_path: abs, old_string: c.oldText, new_string: c.newText };
      if (!c.isError) output = `Successfully modified file: ${abs} (1 replacements).`;
      break;
    case 'write':
      name = 'write_file';
      displayName = 'WriteFile';
      args = { file_path: abs, content: c.content };
      output = `Successfully created and wrote to new file: ${abs}.`;
      break;
    case 'grep':
      name = 'search_file_content';
      displayName = 'SearchText';
      args = { pattern: c.pattern, path: abs };
      output = `Found matches for pattern "${c.pattern}" in path "${abs}":\n---\n${c.output}\n---`;
      break;
    case 'list':
      name = 'list_directory';
      displayName = 'ReadFolder';
      args = { path: abs };
      output = `Directory listing for ${abs}:\n${c.output}`;
      break;
  }
  const id = `${name}-${c.t}-${s.r.hex(13)}`;
  const markdown = c.kind !== 'shell';
  return {
    executing: {
      id,
      name,
      args,
      status: 'executing',
      timestamp: iso(c.t),
      displayName,
      description: '',
      renderOutputAsMarkdown: markdown,
    },
    done: {
      id,
      name,
      args,
      result: [{ functionResponse: { id, name, response: c.isError ? { error: output } : { output } } }],
      status: c.isError ? 'error' : 'success',
      timestamp: iso(c.t + c.durationMs),
      ...(c.kind === 'shell' && c.output.length < 4096 ? { resultDisplay: c.output } : {}),
      displayName,
      description: '',
      renderOutputAsMarkdown: markdown,
    },
  };
}

/** A gemini message once its tool calls finished, and the same message while they ran. */
function geminiMessage(
  s: Session,
  mt: ModelTurn,
  model: string,
): { done: Record<string, unknown>; executing?: Record<string, unknown> } {
  const r = s.r;
  const msg: Record<string, unknown> = {
    id: r.uuid(),
    timestamp: iso(mt.t),
    type: 'gemini',
    content: mt.text ?? '',
  };
  if (mt.reasoning !== undefined) {
    const subject = s.g.fill(r.pick(T.headings)).replace(/\*\*/g, '');
    msg.thoughts = [{ subject, description: mt.reasoning, timestamp: iso(mt.t - 1_500) }];
  }
  const calls = mt.calls.map((c) => toolCall(s, c));
  const input = r.range(5_000, 90_000);
  const output = r.range(20, 3_000);
  const thoughts = mt.reasoning ? r.range(50, 1_500) : 0;
  const tokens = {
    input,
    output,
    cached: Math.floor(input * 0.6),
    thoughts,
    tool: 0,
    total: input + output + thoughts,
  };
  if (calls.length === 0) return { done: { ...msg, tokens, model } };
  return {
    done: { ...msg, toolCalls: calls.map((c) => c.done), tokens, model },
    executing: { ...msg, toolCalls: calls.map((c) => c.executing), tokens, model },
  };
}

/** 1-based line where `"content": <text>` starts in a pretty-printed document. */
function lineOf(doc: string, text: string): number {
  const at = doc.indexOf(`"content": ${JSON.stringify(text)}`);
  if (at < 0) return 0;
  let line = 1;
  for (let i = doc.indexOf('\n'); i !== -1 && i < at; i = doc.indexOf('\n', i + 1)) line++;
  return line;
}

export function writeGeminiCli(s: Session): WriterOutput {
  const r = s.r;
  const model = r.pick(MODELS);
  const hash = projectHash(s.project.root);
  const jsonl = r.chance(0.25);
  const d = new Date(s.start).toISOString();
  const name = `session-${d.slice(0, 10)}T${d.slice(11, 13)}-${d.slice(14, 16)}-${s.id.slice(0, 8)}`;
  const dir = `.gemini/tmp/${hash}/chats`;
  const needles: [number, number][] = [];

  if (!jsonl) {
    const messages: Record<string, unknown>[] = [];
    const needleTexts: [number, string][] = [];
    for (const turn of s.turns) {
      messages.push({ id: r.uuid(), timestamp: iso(turn.t), type: 'user', content: turn.prompt });
      if (turn.needle !== undefined) needleTexts.push([turn.needle, turn.prompt]);
      for (const mt of turn.model) {
        messages.push(geminiMessage(s, mt, model).done);
        if (mt.needle !== undefined && mt.text !== undefined) needleTexts.push([mt.needle, mt.text]);
      }
      if (r.chance(0.02))
        messages.push({
          id: r.uuid(),
          timestamp: iso(turn.t + 1),
          type: 'info',
          content: 'Request cancelled.',
        });
    }
    const doc = JSON.stringify(
      { sessionId: s.id, projectHash: hash, startTime: iso(s.start), lastUpdated: iso(s.end), messages },
      null,
      2,
    );
    for (const [qid, text] of needleTexts) needles.push([qid, lineOf(doc, text)]);
    const rel = `${dir}/${name}.json`;
    return { transcript: rel, files: [{ rel, data: doc }], needles };
  }

  const out = new JsonLines();
  out.push({
    sessionId: s.id,
    projectHash: hash,
    startTime: iso(s.start),
    lastUpdated: iso(s.start),
    kind: 'main',
  });
  const rewindAfter = r.chance(0.2) ? r.int(s.turns.length) : -1;
  s.turns.forEach((turn, ti) => {
    const l = out.push({
      id: r.uuid(),
      timestamp: iso(turn.t),
      type: 'user',
      content: [{ text: turn.prompt }],
    });
    if (turn.needle !== undefined) needles.push([turn.needle, l]);
    for (const mt of turn.model) {
      const msg = geminiMessage(s, mt, model);
      if (msg.executing) out.push(msg.executing);
      const l2 = out.push(msg.done);
      if (mt.needle !== undefined) needles.push([mt.needle, l2]);
    }
    if (r.chance(0.3)) out.push({ $set: { lastUpdated: iso(turn.model.at(-1)?.t ?? turn.t) } });
    if (ti === rewindAfter) {
      // An exchange the user rewound: it must not survive in the parsed thread.
      const t = (turn.model.at(-1)?.t ?? turn.t) + 30_000;
      const uid = r.uuid();
      out.push({ id: uid, timestamp: iso(t), type: 'user', content: [{ text: s.g.prompt() }] });
      out.push(geminiMessage(s, { text: s.g.response(), calls: [], t: t + 5_000 }, model).done);
      out.push({ $rewindTo: uid });
    }
  });
  const rel = `${dir}/${name}.jsonl`;
  return { transcript: rel, files: [{ rel, data: out.text() }], needles };
}
