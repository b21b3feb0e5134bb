#!/usr/bin/env node
/**
 * Turns the hand-written sources (src/*.mjs) into transcripts in other agents' real on-disk shapes
 * under home/ — Codex CLI rollouts, Gemini CLI `.json` documents and `.jsonl` logs, an Antigravity
 * brain folder — and the question file questions.jsonl. Each question's evidence (a session and a
 * quoted piece of the answer) is resolved to the one transcript line that holds that step; the
 * build fails when a quote is on no line or on more than one, so every `file:line` is checked.
 *
 *   node eval/handwritten2/build.mjs          # rewrite home/ and questions.jsonl
 *   node eval/handwritten2/build.mjs --check  # fail if they differ from what is committed
 *
 * Which line holds a step, per format (the only lines a quote is matched against):
 * - Codex: the first line a message is written on — the `response_item` for the user's prompt, the
 *   `event_msg.agent_message` for the assistant's words (each has a later duplicate: the
 *   `event_msg.user_message`, the assistant `response_item`); tool calls and outputs on their own lines.
 * - Gemini `.json`: the line where the message object starts (its `{`; tool calls and thoughts
 *   belong to the message), as docs/eval.md says and the indexer records.
 * - Gemini `.jsonl`: the last line written for a message id (earlier lines are superseded partial
 *   writes); messages removed by `$rewindTo` hold no evidence.
 * - Antigravity: the step's line in transcript_full.jsonl (transcript.jsonl is the compacted copy).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import amara from './src/chat-amara-henrik.mjs';
import saoirse from './src/chat-saoirse-tomas.mjs';
import yusuf from './src/chat-yusuf-beatrix.mjs';
import coding from './src/coding.mjs';
import questions from './src/questions.mjs';

const HERE = import.meta.dirname;
const check = process.argv.includes('--check');

const hex = (...parts) => createHash('sha256').update(parts.join('/')).digest('hex');
const uuid4 = (...parts) => {
  const h = hex(...parts);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
/** Codex names sessions with UUIDv7 (time first). */
const uuid7 = (ms, ...parts) => {
  const t = ms.toString(16).padStart(12, '0');
  const h = hex(...parts);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(0, 3)}-9${h.slice(3, 6)}-${h.slice(6, 18)}`;
};
const iso = (ms) => new Date(ms).toISOString();
const stamp = (ms) => iso(ms).slice(0, 19).replace(/:/g, '-');

/** A clock for one session: each call moves it on by `s` seconds. */
function clock(at) {
  let t = Date.parse(at);
  return (s = 1) => {
    t += Math.round(s * 1000);
    return t;
  };
}

/** Thinking text "**Subject**\n\nBody" (Codex style) split for agents that keep them apart. */
function thought(text) {
  const m = /^\*\*(.+?)\*\*\s*\n\n([\s\S]*)$/.exec(text);
  return m ? { subject: m[1], description: m[2] } : { subject: text.split(/[.:]/)[0], description: text };
}

/** The text a quote may match in a tool turn, and a one-line description of it. */
const toolText = (t) => [t[1], t[2], t[3]].filter((x) => typeof x === 'string').join('\n');

// ---------------------------------------------------------------------------------------------
// Codex CLI: ~/.codex/sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl, {timestamp, type, payload}

function renderCodex(s, { chatIndex = -1 } = {}) {
  const tick = clock(s.at);
  const start = Date.parse(s.at);
  const id = uuid7(start, 'codex', s.key);
  const lines = [];
  const texts = [];
  const put = (ms, type, payload, text = '') => {
    lines.push(JSON.stringify({ timestamp: iso(ms), type, payload }));
    texts.push(text);
  };
  const cli = s.newShell ? '0.58.0' : '0.46.0';
  const coding = Boolean(s.agentsMd);
  put(start, 'session_meta', {
    id,
    timestamp: iso(start),
    cwd: s.cwd,
    originator: 'codex_cli_rs',
    cli_version: cli,
    instructions: null,
    source: 'cli',
    model_provider: 'openai',
    ...(coding ? { git: { commit_hash: hex('commit', s.key).slice(0, 40), branch: s.branch, repository_url: `git@github.com:mira/${s.cwd.split('/').pop()}.git` } } : {}),
  });
  const userMsg = (ms, text) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  if (coding)
    put(tick(0.2), 'response_item', userMsg(0, `# AGENTS.md instructions for ${s.cwd}\n\n<INSTRUCTIONS>\n${s.agentsMd}\n</INSTRUCTIONS>`));
  put(
    tick(0.2),
    'response_item',
    userMsg(0, `<environment_context>\n  <cwd>${s.cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>`),
  );
  // an older CLI wrote only the event copy of the assistant's words in one chat session
  const eventOnly = chatIndex === 3;
  const pace = coding ? { u: 40, a: 12 } : { u: 70, a: 80 };
  let calls = 0;
  let lastAgent = '';
  let turnOpen = false;
  const closeTurn = () => {
    if (turnOpen && s.newShell) put(tick(0.1), 'event_msg', { type: 'task_complete', last_agent_message: lastAgent });
    turnOpen = false;
  };
  const shell = (cmd, output, exit, text) => {
    const call = `call_${hex(s.key, 'call', calls++).slice(0, 24)}`;
    put(tick(1), 'response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', cmd], workdir: s.cwd, timeout_ms: 120000 }), call_id: call }, cmd);
    const secs = 0.4 + (calls % 5) * 0.7;
    const out = s.newShell
      ? `Exit code: ${exit}\nWall time: ${secs.toFixed(1)} seconds\nOutput:\n${output}`
      : JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: secs } });
    put(tick(secs + 0.5), 'response_item', { type: 'function_call_output', call_id: call, output: out }, text ?? output);
  };
  for (const t of s.turns) {
    const [role] = t;
    if (role === 'u') {
      closeTurn();
      const ms = tick(pace.u);
      if (s.newShell) put(ms, 'event_msg', { type: 'task_started', model_context_window: 272000 });
      put(ms, 'response_item', userMsg(ms, t[1]), t[1]);
      put(tick(0.4), 'event_msg', { type: 'user_message', message: t[1], images: [] });
      put(tick(0.1), 'turn_context', { cwd: s.cwd, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write', network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false }, model: 'gpt-5-codex', effort: 'medium', summary: 'auto' });
      put(tick(0.3), 'event_msg', { type: 'token_count', info: null, rate_limits: { primary: { used_percent: 4.0, window_minutes: 299, resets_in_seconds: 14000 }, secondary: null } });
      turnOpen = true;
    } else if (role === 'a') {
      const ms = tick(pace.a);
      lastAgent = t[1];
      put(ms, 'event_msg', { type: 'agent_message', message: t[1] }, t[1]);
      if (!eventOnly) put(tick(0.2), 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t[1] }] });
      put(tick(0.1), 'event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 9000 + lines.length * 40, cached_input_tokens: 8000, output_tokens: 300, reasoning_output_tokens: 128, total_tokens: 9300 + lines.length * 40 } }, rate_limits: null });
    } else if (role === 'think') {
      const ms = tick(4);
      put(ms, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: t[1] }], content: null, encrypted_content: `gAAAAAB${hex(s.key, 'enc', lines.length).slice(0, 48)}` }, t[1]);
      put(tick(0.2), 'event_msg', { type: 'agent_reasoning', text: t[1] });
    } else if (role === 'sh') shell(t[1], t[2], t[3] ?? 0);
    else if (role === 'read') shell(`sed -n '1,200p' ${t[1]}`, t[2], 0);
    else if (role === 'grep') shell(`rg -n "${t[1]}" ${t[2]}`, t[3], 0);
    else if (role === 'edit') {
      const [, path, before, after] = t;
      const call = `call_${hex(s.key, 'call', calls++).slice(0, 24)}`;
      const minus = before.split('\n').map((l) => `-${l}`).join('\n');
      const plus = after.split('\n').map((l) => `+${l}`).join('\n');
      const input = before
        ? `*** Begin Patch\n*** Update File: ${path}\n@@\n${minus}\n${plus}\n*** End Patch`
        : `*** Begin Patch\n*** Add File: ${path}\n${plus}\n*** End Patch`;
      put(tick(6), 'response_item', { type: 'custom_tool_call', status: 'completed', call_id: call, name: 'apply_patch', input }, input);
      put(tick(0.3), 'response_item', { type: 'custom_tool_call_output', call_id: call, output: JSON.stringify({ output: `Success. Updated the following files:\nM ${path}\n`, metadata: { exit_code: 0, duration_seconds: 0.0 } }) });
    } else throw new Error(`${s.key}: unknown turn ${role}`);
  }
  closeTurn();
  const d = new Date(start);
  const ymd = [d.getUTCFullYear(), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0')];
  const file = `.codex/sessions/${ymd.join('/')}/rollout-${stamp(start)}-${id}.jsonl`;
  return { key: s.key, file, body: `${lines.join('\n')}\n`, texts };
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI: tool calls in the vocabulary of the CLI's own tools

function geminiTool(s, t, ms, n, legacy) {
  const [role] = t;
  const id = (name) => `${name}-${ms}-${n}`;
  const base = (name, args, output, status, extra) => ({
    id: id(name),
    name,
    args,
    result: [{ functionResponse: { id: id(name), name, response: { output } } }],
    status,
    timestamp: iso(ms + 900),
    ...extra,
  });
  if (role === 'sh') {
    const [, command, output, exit = 0] = t;
    const out = `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${40000 + n}`;
    return base('run_shell_command', { command, description: 'Runs the command' }, out, exit ? 'error' : 'success', { displayName: 'Shell', description: 'This tool executes a given shell command as `bash -c <command>`.', resultDisplay: output, renderOutputAsMarkdown: false });
  }
  if (role === 'read')
    return base('read_file', legacy ? { absolute_path: t[1] } : { file_path: t[1] }, t[2], 'success', { displayName: 'ReadFile', description: 'Reads and returns the content of a specified file.', resultDisplay: '', renderOutputAsMarkdown: true });
  if (role === 'grep') {
    const [, pattern, dir, output] = t;
    const n2 = output.split('\n').length;
    const out = `Found ${n2} matches for pattern "${pattern}" in path "${dir}":\n---\n${output}\n---`;
    return base('search_file_content', { pattern, path: dir }, out, 'success', { displayName: 'SearchText', resultDisplay: `Found ${n2} matches`, renderOutputAsMarkdown: true });
  }
  if (role === 'edit') {
    const [, path, before, after] = t;
    if (!before)
      return base('write_file', { file_path: path, content: after }, `Successfully created and wrote to new file: ${path}.`, 'success', { displayName: 'WriteFile', resultDisplay: { fileDiff: after.split('\n').map((l) => `+${l}`).join('\n'), fileName: path.split('/').pop() } });
    return base('replace', { file_path: path, old_string: before, new_string: after }, `Successfully modified file: ${path} (1 replacements).`, 'success', { displayName: 'Edit', resultDisplay: { fileDiff: `@@ -1 +1 @@\n${before.split('\n').map((l) => `-${l}`).join('\n')}\n${after.split('\n').map((l) => `+${l}`).join('\n')}`, fileName: path.split('/').pop() } });
  }
  throw new Error(`${s.key}: no Gemini tool for ${role}`);
}

/**
 * The session as Gemini CLI messages: a user message per prompt; a `gemini` message per agent
 * message, carrying the thoughts before it and the tool calls after it (a model turn that starts
 * with a tool call gets a message with empty content). `['rewind', n]` marks a rewind to the n-th
 * user message back. Each message has the text its quote may match.
 */
function geminiMessages(s, legacy) {
  const tick = clock(s.at);
  const coding = s.key.startsWith('c');
  const pace = coding ? { u: 40, a: 12 } : { u: 70, a: 80 };
  const out = [];
  let pending = [];
  let current = null;
  let n = 0;
  const model = () => {
    const ms = tick(pace.a);
    const m = { id: uuid4('gemini', s.key, 'msg', n++), timestamp: iso(ms), type: 'gemini', content: '', _text: [], _ms: ms };
    if (pending.length) {
      m.thoughts = pending.map((p) => ({ ...thought(p), timestamp: iso(ms - 2000) }));
      m._text.push(...pending);
      pending = [];
    }
    m.tokens = { input: 6000 + n * 310, output: 140, cached: 0, thoughts: m.thoughts ? 220 : 0, tool: 0, total: 6360 + n * 310 };
    m.model = 'gemini-2.5-pro';
    out.push(m);
    return m;
  };
  for (const t of s.turns) {
    const [role] = t;
    if (role === 'u') {
      current = null;
      const ms = tick(pace.u);
      out.push({ id: uuid4('gemini', s.key, 'msg', n++), timestamp: iso(ms), type: 'user', content: legacy || coding ? t[1] : [{ text: t[1] }], _text: [t[1]], _ms: ms });
    } else if (role === 'a') {
      current = model();
      current.content = t[1];
      current._text.unshift(t[1]);
    } else if (role === 'think') {
      current = null;
      pending.push(t[1]);
    } else if (role === 'rewind') {
      const users = out.filter((m) => m.type === 'user' && !m._gone);
      const target = users[users.length - t[1]];
      for (const m of out.slice(out.indexOf(target))) m._gone = true;
      out.push({ $rewindTo: target.id, _text: [] });
      current = null;
    } else {
      if (!current) current = model();
      current.toolCalls ??= [];
      const call = geminiTool(s, t, current._ms + current.toolCalls.length * 1500, n++, legacy);
      current.toolCalls.push(call);
      current._text.push(toolText(t));
    }
  }
  return out;
}

const clean = (m) => Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('_')));
const projectHash = (cwd) => hex(cwd).slice(0, 64);

/** Gemini CLI `.json` document: the line a message object starts on holds its step. */
function renderGeminiJson(s) {
  const legacy = Boolean(s.legacyHashFolder);
  const msgs = geminiMessages(s, legacy);
  if (msgs.some((m) => m.$rewindTo)) throw new Error(`${s.key}: rewinds are for .jsonl logs`);
  const sessionId = uuid4('gemini-session', s.key);
  const last = msgs[msgs.length - 1]._ms;
  const doc = { sessionId, projectHash: projectHash(s.cwd), startTime: iso(Date.parse(s.at)), lastUpdated: iso(last + 2000), messages: msgs.map(clean) };
  const body = `${JSON.stringify(doc, null, 2)}\n`;
  const lines = body.split('\n');
  const texts = lines.map(() => '');
  let i = lines.indexOf('  "messages": [');
  for (const m of msgs) {
    while (lines[++i] !== '    {');
    texts[i] = m._text.join('\n');
  }
  const folder = legacy ? projectHash(s.cwd) : s.slug;
  const start = Date.parse(s.at);
  const file = `.gemini/tmp/${folder}/chats/session-${stamp(start).slice(0, 16)}-${sessionId.slice(0, 8)}.json`;
  return { key: s.key, file, body, texts: texts.slice(0, -1), folder, sessionId, msgs };
}

/** Gemini CLI `.jsonl` log: metadata line, message lines (re-written as a message grows), `$set` and `$rewindTo`. */
function renderGeminiJsonl(s) {
  const msgs = geminiMessages(s, false);
  const sessionId = uuid4('gemini-session', s.key);
  const start = Date.parse(s.at);
  const lines = [JSON.stringify({ sessionId, projectHash: projectHash(s.cwd), startTime: iso(start), lastUpdated: iso(start), kind: 'main' })];
  const texts = [''];
  const finalLine = new Map();
  const put = (obj, text = '') => {
    lines.push(JSON.stringify(obj));
    texts.push(text);
    return lines.length - 1;
  };
  msgs.forEach((m, k) => {
    if (m.$rewindTo) return put({ $rewindTo: m.$rewindTo });
    const full = clean(m);
    if (m.type === 'user') {
      finalLine.set(m, put(full));
      return put({ $set: { lastUpdated: iso(m._ms + 10) } });
    }
    if (m.toolCalls) {
      // the CLI writes the message when the calls start, then again with each result
      put({ ...full, tokens: undefined, toolCalls: m.toolCalls.map((c) => ({ ...c, result: undefined, status: 'executing' })) });
      finalLine.set(m, put(full));
    } else if (k % 4 === 1) {
      // a reply first written without its token counts, then re-written with them
      put({ ...full, tokens: undefined });
      finalLine.set(m, put(full));
    } else finalLine.set(m, put(full));
  });
  for (const [m, line] of finalLine) if (!m._gone) texts[line] = m._text.join('\n');
  const file = `.gemini/tmp/${s.slug}/chats/session-${stamp(start).slice(0, 16)}-${sessionId.slice(0, 8)}.jsonl`;
  return { key: s.key, file, body: `${lines.join('\n')}\n`, texts, folder: s.slug, sessionId, msgs };
}

/** `logs.json` beside chats/: the user's prompts of every session in the folder. */
function geminiLogs(rendered) {
  const entries = [];
  for (const r of rendered) {
    let k = 0;
    for (const m of r.msgs) if (m.type === 'user') entries.push({ sessionId: r.sessionId, messageId: k++, type: 'user', message: m._text[0], timestamp: m.timestamp });
  }
  return `${JSON.stringify(entries, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Antigravity: ~/.gemini/antigravity/brain/<id>/.system_generated/logs/transcript_full.jsonl

function renderAntigravity(s) {
  const tick = clock(s.at);
  const id = uuid4('antigravity', s.key);
  const steps = [];
  const texts = [];
  const step = (o, text = '') => {
    steps.push({ step_index: steps.length, ...o });
    texts.push(text);
    return steps[steps.length - 1];
  };
  const at = (ms) => `${iso(ms).slice(0, 19)}Z`;
  const local = (ms) => `${iso(ms + 2 * 3600e3).slice(0, 19)}+02:00`;
  const stampResult = (ms) => `Created At: ${at(ms)}\nCompleted At: ${at(ms)}\n`;
  const q = (v) => JSON.stringify(v);
  let pending = [];
  let planner = null;
  let results = [];
  let background = 0;
  const flush = () => {
    for (const r of results) r();
    results = [];
  };
  const plan = () => {
    flush();
    const ms = tick(12);
    planner = step({ source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at(ms) }, '');
    if (pending.length) {
      planner.thinking = pending.join('\n\n');
      texts[planner.step_index] = pending.join('\n');
      pending = [];
    }
    return planner;
  };
  let first = true;
  for (const t of s.turns) {
    const [role] = t;
    if (role === 'u') {
      flush();
      planner = null;
      const ms = tick(40);
      step(
        { source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at(ms), content: `<USER_REQUEST>\n${t[1]}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: ${local(ms)}.\nActive Document: ${s.cwd}/internal/board/handler.go (LANGUAGE_GO)\nCursor is on line: 27\n</ADDITIONAL_METADATA>${first ? '\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection` from None to Gemini 3 Pro (High). No need to acknowledge this change.\n</USER_SETTINGS_CHANGE>' : ''}` },
        t[1],
      );
      if (first) {
        step({ source: 'SYSTEM', type: 'CONVERSATION_HISTORY', status: 'DONE', created_at: at(tick(1)) });
        step({ source: 'SYSTEM', type: 'KNOWLEDGE_ARTIFACTS', status: 'DONE', created_at: at(tick(0.2)) });
      }
      first = false;
    } else if (role === 'think') pending.push(t[1]);
    else if (role === 'a') {
      const p = plan();
      p.content = t[1];
      texts[p.step_index] = [t[1], texts[p.step_index]].filter(Boolean).join('\n');
    } else {
      const p = planner ?? plan();
      p.tool_calls ??= [];
      const text = toolText(t);
      texts[p.step_index] = [texts[p.step_index], role === 'edit' ? text : t[1]].filter(Boolean).join('\n');
      if (role === 'sh') {
        const [, cmd, output, exit = 0] = t;
        p.tool_calls.push({ name: 'run_command', args: { CommandLine: q(cmd), Cwd: q(s.cwd), SafeToAutoRun: 'true', WaitMsBeforeAsync: exit ? '2000' : '5000', toolAction: q('Running command'), toolSummary: q(cmd.slice(0, 40)) } });
        results.push(() => {
          const ms = tick(3);
          if (exit) {
            // a slow failing run goes to the background and finishes in a later system message
            const task = `${id}/task-${steps.length}`;
            background++;
            step({ source: 'MODEL', type: 'RUN_COMMAND', status: 'RUNNING', created_at: at(ms), content: `${stampResult(ms)}Tool is running as a background task with task id: ${task}\nTask Description: ${cmd}\nTask logs are available at: file:///home/mira/.gemini/antigravity/brain/${task}.log` });
            const done = tick(20);
            step(
              { source: 'SYSTEM', type: 'SYSTEM_MESSAGE', status: 'DONE', created_at: at(done), content: `The following is a <SYSTEM_MESSAGE> not actually sent by the user. It is provided by the system as important information to pay attention to.\n\n<SYSTEM_MESSAGE>\n[Message] timestamp=${at(done)} sender=${task} priority=MESSAGE_PRIORITY_HIGH content=Task id "${task}" finished with result:\n\n\t\t\t\tThe command failed with exit code ${exit}.\n\t\t\tStdout:\n\t\t\t\n${output}\n</SYSTEM_MESSAGE>` },
              output,
            );
          } else
            step({ source: 'MODEL', type: 'RUN_COMMAND', status: 'DONE', created_at: at(ms), content: `${stampResult(ms)}\t\t\t\tThe command completed successfully.\n\t\t\t\tOutput:\n${output}` }, output);
        });
      } else if (role === 'grep') {
        p.tool_calls.push({ name: 'grep_search', args: { SearchPath: q(t[2]), Query: q(t[1]), MatchPerLine: 'true', toolAction: q('Searching'), toolSummary: q(`Grep for ${t[1]}`) } });
        results.push(() => {
          const ms = tick(1);
          step({ source: 'MODEL', type: 'GREP_SEARCH', status: 'DONE', created_at: at(ms), content: `${stampResult(ms)}${t[3]}` }, t[3]);
        });
      } else if (role === 'read') {
        p.tool_calls.push({ name: 'view_file', args: { AbsolutePath: q(t[1]) } });
        results.push(() => {
          const ms = tick(1);
          const body = t[2].split('\n').map((l, k) => `${k + 1}: ${l}`).join('\n');
          step({ source: 'MODEL', type: 'VIEW_FILE', status: 'DONE', created_at: at(ms), content: `${stampResult(ms)}File Path: \`file://${t[1]}\`\n${body}` }, t[2]);
        });
      } else if (role === 'edit') {
        const [, path, before, after] = t;
        // edits arrive with their arguments as one JSON string, each value JSON-encoded again
        p.tool_calls.push({ name: 'replace_file_content', arguments: JSON.stringify({ TargetFile: q(path), Instruction: q('Apply the change'), TargetContent: q(before), ReplacementContent: q(after) }) });
        results.push(() => {
          const ms = tick(1);
          const diff = `@@ -1 +1 @@\n${before.split('\n').map((l) => `-${l}`).join('\n')}\n${after.split('\n').map((l) => `+${l}`).join('\n')}`;
          step({ source: 'MODEL', type: 'REPLACE_FILE_CONTENT', status: 'DONE', created_at: at(ms), content: `${stampResult(ms)}The following changes were made by the replace_file_content tool to: ${path}.\n${diff}` });
          step({ source: 'SYSTEM', type: 'EPHEMERAL_MESSAGE', status: 'DONE', created_at: at(ms), content: `<EPHEMERAL_MESSAGE>\nThe USER is viewing ${path}. Do not mention this message.\n</EPHEMERAL_MESSAGE>` });
        });
      } else throw new Error(`${s.key}: unknown turn ${role}`);
    }
  }
  flush();
  if (!background) throw new Error(`${s.key}: expected a backgrounded command`);
  const dir = `.gemini/antigravity/brain/${id}`;
  const full = `${steps.map((x) => JSON.stringify(x)).join('\n')}\n`;
  // the compacted copy truncates long contents; it must not count twice
  const compact = `${steps.map((x) => JSON.stringify(x.content && x.content.length > 160 ? { ...x, content: `${x.content.slice(0, 160)}…[truncated]` } : x)).join('\n')}\n`;
  const task = `# Task: fix "no data" on the departure board\n\n- [x] Find why the transit API rate limits us\n- [x] Cache departures per stop (20 s, singleflight)\n- [x] Serve stale departures on 429\n`;
  return {
    key: s.key,
    file: `${dir}/.system_generated/logs/transcript_full.jsonl`,
    body: full,
    texts,
    extra: [
      [`${dir}/.system_generated/logs/transcript.jsonl`, compact],
      [`${dir}/task.md`, task],
    ],
  };
}

// ---------------------------------------------------------------------------------------------

const sessions = [];
const geminiFolders = new Map();
const addGemini = (r, s) => {
  sessions.push(r);
  if (!geminiFolders.has(r.folder)) geminiFolders.set(r.folder, { cwd: s.slug ? s.cwd : null, rendered: [] });
  geminiFolders.get(r.folder).rendered.push(r);
};
const chats = [yusuf, saoirse, amara];
for (const chat of chats)
  chat.sessions.forEach((x, i) => {
    const s = { ...x, key: `${chat.key}${i + 1}`, cwd: chat.cwd, slug: chat.slug };
    if (chat.agent === 'codex') sessions.push(renderCodex(s, { chatIndex: i }));
    else if (chat.agent === 'gemini-json') addGemini(renderGeminiJson(s), s);
    else if (chat.agent === 'gemini-jsonl') addGemini(renderGeminiJsonl(s), s);
    else throw new Error(`unknown agent ${chat.agent}`);
  });
for (const s of coding) {
  if (s.agent === 'codex') sessions.push(renderCodex(s));
  else if (s.agent === 'gemini-json') addGemini(renderGeminiJson(s), s);
  else if (s.agent === 'gemini-jsonl') addGemini(renderGeminiJsonl(s), s);
  else if (s.agent === 'antigravity') sessions.push(renderAntigravity(s));
  else throw new Error(`unknown agent ${s.agent}`);
}
const byKey = new Map(sessions.map((s) => [s.key, s]));

const out = [];
const bad = [];
questions.forEach((q, i) => {
  const evidence = q.ev.map(([key, quote]) => {
    const s = byKey.get(key);
    if (!s) return bad.push(`hq${i + 1}: no session ${key}`), null;
    const hits = s.texts.flatMap((text, j) => (text.includes(quote) ? [j + 1] : []));
    if (hits.length !== 1) return bad.push(`h2q${i + 1}: "${quote}" is on ${hits.length} step lines of ${key}`), null;
    return `${s.file}:${hits[0]}`;
  });
  out.push(JSON.stringify({ id: `h2q${i + 1}`, kind: q.kind, shape: q.shape, question: q.q, evidence, date: q.date }));
});
if (bad.length) {
  process.stderr.write(`${bad.join('\n')}\n`);
  process.exit(1);
}

const files = new Map(sessions.map((s) => [join(HERE, 'home', s.file), s.body]));
for (const s of sessions) for (const [p, body] of s.extra ?? []) files.set(join(HERE, 'home', p), body);
for (const [folder, { cwd, rendered }] of geminiFolders) {
  // newer releases name the folder by a slug and record the project's path beside chats/;
  // the legacy hash-named folder has no such file
  if (cwd) files.set(join(HERE, 'home', '.gemini', 'tmp', folder, '.project_root'), `${cwd}\n`);
  files.set(join(HERE, 'home', '.gemini', 'tmp', folder, 'logs.json'), geminiLogs(rendered));
}
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
const counts = new Map();
for (const l of out) counts.set(JSON.parse(l).kind, (counts.get(JSON.parse(l).kind) ?? 0) + 1);
const kinds = [...counts].map(([k, n]) => `${n} ${k}`);
process.stderr.write(`${sessions.length} sessions, ${sessions.reduce((a, s) => a + s.texts.length, 0)} lines, ${out.length} questions (${kinds.join(', ')})${check ? ': up to date' : ''}\n`);
