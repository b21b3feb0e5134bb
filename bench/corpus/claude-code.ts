/**
 * Claude Code: ~/.claude/projects/<encoded cwd>/<sessionId>.jsonl. One API turn is written as
 * several `assistant` lines sharing message.id (thinking, text, each tool_use); tool results come
 * back as `user` lines with tool_result blocks and a structured `toolUseResult`. Also written:
 * file-history-snapshot lines, local-command meta lines, compact boundaries with a summary,
 * and the odd interruption — the things a parser must skip.
 */
import type { Session } from './session.js';
import type { ToolCall } from './tools.js';
import { iso, JsonLines, numbered, type WriterOutput } from './writer.js';

const VERSIONS = ['1.0.98', '2.0.14', '2.0.31', '2.0.55', '2.1.4'];
const MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-20250514',
  'claude-haiku-4-5-20251001',
];

/** Claude's directory name for a cwd: every non-alphanumeric character becomes '-'. */
export function encodeClaudeProject(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function toolUse(call: ToolCall, root: string): { name: string; input: Record<string, unknown> } {
  const abs = (p = '') => `${root}/${p}`;
  switch (call.kind) {
    case 'shell':
      return { name: 'Bash', input: { command: call.command, description: call.description } };
    case 'read':
      return { name: 'Read', input: { file_path: abs(call.path) } };
    case 'edit':
      return {
        name: 'Edit',
        input: { file_path: abs(call.path), old_string: call.oldText, new_string: call.newText },
      };
    case 'write':
      return { name: 'Write', input: { file_path: abs(call.path), content: call.content } };
    case 'grep':
      return {
        name: 'Grep',
        input: { pattern: call.pattern, path: abs(call.path), output_mode: 'content', '-n': true },
      };
    case 'list':
      return { name: 'Glob', input: { pattern: `${call.path}/**/*` } };
  }
}

function toolResult(call: ToolCall, root: string): { content: string; structured: unknown } {
  const abs = `${root}/${call.path ?? ''}`;
  if (call.kind === 'shell') {
    if (call.isError) {
      const content = `Exit code ${call.exitCode}\n${call.output}`;
      return { content, structured: `Error: ${content}` };
    }
    return {
      content: call.output,
      structured: { stdout: call.output, stderr: '', interrupted: false, isImage: false },
    };
  }
  if (call.isError)
    return {
      content: `<tool_use_error>${call.output}</tool_use_error>`,
      structured: `Error: ${call.output}`,
    };
  switch (call.kind) {
    case 'read': {
      const lines = call.output.split('\n').length;
      return {
        content: numbered(call.output, (n, l) => `${String(n).padStart(6)}→${l}`),
        structured: {
          type: 'text',
          file: { filePath: abs, content: call.output, numLines: lines, startLine: 1, totalLines: lines },
        },
      };
    }
    case 'edit': {
      const start = 10 + (call.output.length % 200);
      const snippet = numbered(call.newText ?? '', (n, l) => `${String(n + start).padStart(6)}→${l}`);
      return {
        content: `The file ${abs} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`,
        structured: {
          filePath: abs,
          oldString: call.oldText,
          newString: call.newText,
          replaceAll: false,
          userModified: false,
        },
      };
    }
    case 'write':
      return { content: call.output, structured: { type: 'create', filePath: abs, content: call.content } };
    case 'list': {
      const files = call.output.split('\n').map((f) => `${root}/${f}`);
      return {
        content: files.join('\n'),
        structured: {
          filenames: files,
          durationMs: call.durationMs,
          numFiles: files.length,
          truncated: false,
        },
      };
    }
    default:
      return { content: call.output, structured: { mode: 'content', numFiles: 1, content: call.output } };
  }
}

export function writeClaudeCode(s: Session): WriterOutput {
  const r = s.r;
  const root = s.project.root;
  const out = new JsonLines();
  const needles: [number, number][] = [];
  const version = r.pick(VERSIONS);
  const model = r.pick(MODELS);
  let parent: string | null = null;
  const common = (type: string, uuid: string) => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: root,
    sessionId: s.id,
    version,
    gitBranch: s.branch,
    type,
    uuid,
  });
  const user = (content: unknown, t: number, extra: Record<string, unknown> = {}): number => {
    const uuid = r.uuid();
    const line = out.push({
      ...common('user', uuid),
      ...extra,
      message: { role: 'user', content },
      timestamp: iso(t),
    });
    parent = uuid;
    return line;
  };
  // Summaries quote the first request; never a needle, so each answer exists once.
  const first =
    s.turns[0] && s.turns[0].needle === undefined ? s.turns[0].prompt : 'Follow-up on the earlier request';
  if (r.chance(0.05)) out.push({ type: 'summary', summary: first.slice(0, 60).trim(), leafUuid: r.uuid() });
  const compactAt = s.steps > 150 && r.chance(0.3) ? Math.floor(s.turns.length / 2) : -1;

  s.turns.forEach((turn, ti) => {
    if (ti === compactAt && ti > 0) {
      const uuid = r.uuid();
      out.push({
        ...common('system', uuid),
        parentUuid: null,
        logicalParentUuid: parent,
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        timestamp: iso(turn.t - 5_000),
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: r.range(150_000, 170_000) },
      });
      parent = uuid;
      user(
        `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked: ${first.slice(0, 200)}\n\nSummary:\n1. Primary Request and Intent:\n   ${s.g.response(400)}`,
        turn.t - 4_000,
        { isCompactSummary: true, isVisibleInTranscriptOnly: true },
      );
    }
    const promptUuid = r.uuid();
    out.push({
      type: 'file-history-snapshot',
      messageId: promptUuid,
      snapshot: { messageId: promptUuid, trackedFileBackups: {}, timestamp: iso(turn.t) },
      isSnapshotUpdate: false,
    });
    if (r.chance(0.04)) {
      user(
        '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>',
        turn.t - 3_000,
        { isMeta: true },
      );
      user(
        '<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>',
        turn.t - 2_000,
      );
      user(
        `<local-command-stdout>Set model to ${model.includes('opus') ? 'opus' : 'sonnet'}</local-command-stdout>`,
        turn.t - 1_000,
      );
    }
    const promptLine = out.push({
      ...common('user', promptUuid),
      message: { role: 'user', content: turn.prompt },
      timestamp: iso(turn.t),
    });
    parent = promptUuid;
    if (turn.needle !== undefined) needles.push([turn.needle, promptLine]);

    for (const mt of turn.model) {
      const msgId = `msg_01${r.base62(22)}`;
      const requestId = `req_011C${r.base62(20)}`;
      const usage = {
        input_tokens: r.range(3, 40),
        cache_creation_input_tokens: r.range(0, 9000),
        cache_read_input_tokens: r.range(10_000, 150_000),
        output_tokens: r.range(20, 2500),
        service_tier: 'standard',
      };
      const assistant = (block: unknown, t: number): number => {
        const uuid = r.uuid();
        const line = out.push({
          ...common('assistant', uuid),
          message: {
            model,
            id: msgId,
            type: 'message',
            role: 'assistant',
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
          requestId,
          timestamp: iso(t),
        });
        parent = uuid;
        return line;
      };
      let t = mt.t;
      if (mt.reasoning !== undefined)
        assistant({ type: 'thinking', thinking: mt.reasoning, signature: r.base62(120) }, t++);
      if (mt.text !== undefined) {
        const line = assistant({ type: 'text', text: mt.text }, t++);
        if (mt.needle !== undefined) needles.push([mt.needle, line]);
      }
      const ids = mt.calls.map(() => `toolu_01${r.base62(22)}`);
      mt.calls.forEach((call, i) => {
        const use = toolUse(call, root);
        assistant({ type: 'tool_use', id: ids[i], name: use.name, input: use.input }, call.t);
      });
      mt.calls.forEach((call, i) => {
        const res = toolResult(call, root);
        user(
          [{ tool_use_id: ids[i], type: 'tool_result', content: res.content, is_error: call.isError }],
          call.t + call.durationMs,
          {
            toolUseResult: res.structured,
          },
        );
      });
    }
    if (r.chance(0.01)) user([{ type: 'text', text: '[Request interrupted by user]' }], s.end);
  });

  const rel = `.claude/projects/${encodeClaudeProject(root)}/${s.id}.jsonl`;
  return { transcript: rel, files: [{ rel, data: out.text() }], needles };
}
