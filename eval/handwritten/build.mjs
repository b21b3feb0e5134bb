#!/usr/bin/env node
/**
 * Turns the hand-written sources (src/*.mjs) into Claude Code transcripts under home/.claude and
 * the question file questions.jsonl, resolving each question's evidence (a session and a quoted
 * piece of the answer) to the transcript line that holds it. Fails when a quote matches no line or
 * more than one line of its session, so every `file:line` is checked.
 *
 *   node eval/handwritten/build.mjs          # rewrite home/ and questions.jsonl
 *   node eval/handwritten/build.mjs --check  # fail if they differ from what is committed
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import questions from './src/questions.mjs';
import ines from './src/chat-ines-marco.mjs';
import kofi from './src/chat-kofi-lena.mjs';
import coding from './src/coding.mjs';

const HERE = import.meta.dirname;
const check = process.argv.includes('--check');

const uuid = (...parts) => {
  const h = createHash('sha1').update(parts.join('/')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const encode = (cwd) => cwd.replace(/[/._ -]/g, '-');

/** One session's lines, and for each line the text a quote is matched against. */
function render(session) {
  const { key, cwd, branch = 'main', at, turns, pace } = session;
  const sessionId = uuid('session', key);
  const lines = [];
  const texts = [];
  let t = Date.parse(at);
  let parent = null;
  let msgId = null;
  let n = 0;
  const base = () => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '1.0.120', gitBranch: branch });
  const push = (obj, text) => {
    lines.push(JSON.stringify(obj));
    texts.push(text);
    parent = obj.uuid;
  };
  const tick = (s) => {
    t += s * 1000;
    return new Date(t).toISOString();
  };
  lines.push(JSON.stringify({ type: 'file-history-snapshot', messageId: uuid(key, 'snap'), snapshot: { messageId: uuid(key, 'snap'), trackedFileBackups: {}, timestamp: new Date(t).toISOString() }, isSnapshotUpdate: false }));
  texts.push('');
  const assistant = (block, text) => {
    if (!msgId) msgId = `msg_01${createHash('sha1').update(`${key}/${n}`).digest('hex').slice(0, 22)}`;
    const u = uuid(key, 'line', n++);
    push(
      { ...base(), message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [block], stop_reason: null, stop_sequence: null, usage: { input_tokens: 8, output_tokens: 120 } }, requestId: `req_${msgId.slice(6)}`, type: 'assistant', uuid: u, timestamp: tick(pace.a) },
      text,
    );
  };
  for (const [role, a, b, c, isError] of turns) {
    if (role === 'u') {
      msgId = null;
      push({ ...base(), type: 'user', message: { role: 'user', content: a }, uuid: uuid(key, 'line', n++), timestamp: tick(pace.u) }, a);
    } else if (role === 'a') assistant({ type: 'text', text: a }, a);
    else if (role === 'think') assistant({ type: 'thinking', thinking: a, signature: 'EqQBCkYIBRgCKkB' }, a);
    else if (role === 'tool') {
      const id = `toolu_01${createHash('sha1').update(`${key}/tool/${n}`).digest('hex').slice(0, 22)}`;
      assistant({ type: 'tool_use', id, name: a, input: b }, JSON.stringify(b));
      msgId = null;
      push(
        { ...base(), type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: c, is_error: Boolean(isError) }] }, uuid: uuid(key, 'line', n++), timestamp: tick(3), toolUseResult: { stdout: c, stderr: '', interrupted: false } },
        c,
      );
    } else throw new Error(`${key}: unknown turn role ${role}`);
  }
  const file = `.claude/projects/${encode(cwd)}/${sessionId}.jsonl`;
  return { key, file, body: `${lines.join('\n')}\n`, texts };
}

const sessions = [];
for (const chat of [ines, kofi])
  chat.sessions.forEach((s, i) => sessions.push(render({ key: `${chat.key}${i + 1}`, cwd: chat.cwd, at: s.at, turns: s.turns, pace: { u: 75, a: 90 } })));
for (const s of coding) sessions.push(render({ ...s, pace: { u: 40, a: 12 } }));
const byKey = new Map(sessions.map((s) => [s.key, s]));

const out = [];
const bad = [];
questions.forEach((q, i) => {
  const evidence = q.ev.map(([key, quote]) => {
    const s = byKey.get(key);
    if (!s) return bad.push(`${q.id}: no session ${key}`), null;
    const hits = s.texts.flatMap((text, j) => (text.includes(quote) ? [j + 1] : []));
    if (hits.length !== 1) return bad.push(`${q.id}: "${quote}" is on ${hits.length} lines of ${key}`), null;
    return `${s.file}:${hits[0]}`;
  });
  out.push(JSON.stringify({ id: q.id ?? `hq${i + 1}`, kind: q.kind, shape: q.shape, question: q.q, evidence, date: q.date }));
});
if (bad.length) {
  process.stderr.write(`${bad.join('\n')}\n`);
  process.exit(1);
}
const ids = new Set(out.map((l) => JSON.parse(l).id));
if (ids.size !== out.length) throw new Error('duplicate question ids');

const files = new Map(sessions.map((s) => [join(HERE, 'home', s.file), s.body]));
files.set(join(HERE, 'questions.jsonl'), `${out.join('\n')}\n`);
if (check) {
  const stale = [...files].filter(([p, body]) => {
    try {
      return readFileSync(p, 'utf8') !== body;
    } catch {
      return true;
    }
  });
  if (stale.length) {
    process.stderr.write(`stale: ${stale.map(([p]) => p).join(', ')}\n`);
    process.exit(1);
  }
} else {
  rmSync(join(HERE, 'home'), { recursive: true, force: true });
  for (const [p, body] of files) {
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, body);
  }
}
process.stderr.write(`${sessions.length} sessions, ${sessions.reduce((a, s) => a + s.texts.length, 0)} lines, ${out.length} questions${check ? ': up to date' : ''}\n`);
