/**
 * Google Antigravity: ~/.gemini/antigravity/brain/<id>/.system_generated/logs/transcript_full.jsonl,
 * one step per line with a native step_index. User text is wrapped in <USER_REQUEST> plus an
 * <ADDITIONAL_METADATA> block the user never typed; PLANNER_RESPONSE carries thinking, content
 * and tool_calls whose args are JSON-encoded per value with PascalCase keys; tool results follow
 * as typed steps paired by position; a backgrounded command shows RUNNING and is completed by a
 * later SYSTEM_MESSAGE. Scaffolding steps (EPHEMERAL_MESSAGE, CHECKPOINT, …) are sprinkled in.
 */
import type { Session } from './session.js';
import { T } from './text.js';
import type { ToolCall } from './tools.js';
import { iso, JsonLines, numbered, type WriterOutput } from './writer.js';

const LANGUAGE: Record<string, string> = {
  ts: 'LANGUAGE_TYPESCRIPT',
  py: 'LANGUAGE_PYTHON',
  go: 'LANGUAGE_GO',
  rs: 'LANGUAGE_RUST',
};

function encodeArgs(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) out[k] = JSON.stringify(v);
  return out;
}

function call(
  c: ToolCall,
  root: string,
  multi: boolean,
): { name: string; args: Record<string, string>; type: string } {
  const abs = `${root}/${c.path ?? ''}`;
  switch (c.kind) {
    case 'shell':
      return {
        name: 'run_command',
        args: encodeArgs({
          CommandLine: c.command,
          Cwd: root,
          Blocking: !c.background,
          WaitMsBeforeAsync: c.background ? 500 : 0,
          SafeToAutoRun: true,
        }),
        type: 'RUN_COMMAND',
      };
    case 'read':
      return {
        name: 'view_file',
        args: encodeArgs({ AbsolutePath: abs, StartLine: 1, EndLine: c.output.split('\n').length }),
        type: 'VIEW_FILE',
      };
    case 'edit':
      return multi
        ? {
            name: 'multi_replace_file_content',
            args: encodeArgs({
              TargetFile: abs,
              Instruction: c.description ?? 'Apply the fix',
              ReplacementChunks: [
                { TargetContent: c.oldText, ReplacementContent: c.newText, AllowMultiple: false },
              ],
            }),
            type: 'MULTI_REPLACE_FILE_CONTENT',
          }
        : {
            name: 'replace_file_content',
            args: encodeArgs({
              TargetFile: abs,
              TargetContent: c.oldText,
              ReplacementContent: c.newText,
              AllowMultiple: false,
            }),
            type: 'REPLACE_FILE_CONTENT',
          };
    case 'write':
      return {
        name: 'write_to_file',
        args: encodeArgs({ TargetFile: abs, CodeContent: c.content, Overwrite: false }),
        type: 'WRITE_TO_FILE',
      };
    case 'grep':
      return {
        name: 'grep_search',
        args: encodeArgs({ SearchPath: abs, Query: c.pattern, IsRegex: false, MatchPerLine: true }),
        type: 'GREP_SEARCH',
      };
    case 'list':
      return { name: 'list_dir', args: encodeArgs({ DirectoryPath: abs }), type: 'LIST_DIRECTORY' };
  }
}

function resultContent(c: ToolCall, root: string): string {
  if (c.kind === 'read' && !c.isError) {
    const n = c.output.split('\n').length;
    return `File Path: \`file://${root}/${c.path}\`\nTotal Lines: ${n}\nShowing lines 1 to ${n}\n${numbered(c.output, (i, l) => `${i}: ${l}`)}`;
  }
  if (c.kind === 'shell') return `${c.output}${c.isError ? `\n\nExit code: ${c.exitCode}` : ''}`;
  return c.output;
}

export function writeAntigravity(s: Session): WriterOutput {
  const r = s.r;
  const p = s.project;
  const out = new JsonLines();
  const needles: [number, number][] = [];
  let step = 0;
  const push = (
    source: string,
    type: string,
    status: string,
    t: number,
    content: string,
    extra: Record<string, unknown> = {},
  ) => out.push({ step_index: step++, source, type, status, created_at: iso(t), content, ...extra });

  if (r.chance(0.15)) {
    push(
      'SYSTEM',
      'CONVERSATION_HISTORY',
      'DONE',
      s.start - 1_000,
      `# Conversation History\nRecent conversations in this workspace:\n- ${s.g.sentence(T.assistant)}\n- ${s.g.sentence(T.assistant)}`,
    );
  }
  const pending: { id: string; call: ToolCall }[] = [];
  const flushBackground = (t: number) => {
    for (const b of pending.splice(0))
      push('SYSTEM', 'SYSTEM_MESSAGE', 'DONE', t, `Task id "${b.id}" finished with result: ${b.call.output}`);
  };

  for (const turn of s.turns) {
    const local = iso(turn.t).slice(0, 19);
    const settings = r.chance(0.05)
      ? `\n<USER_SETTINGS_CHANGE>\nThe user changed the setting \`model\` from \`Gemini 3 Pro\` to \`${r.pick(['Claude Sonnet 4.5', 'Gemini 3 Flash', 'GPT-OSS 120B'])}\`.\n</USER_SETTINGS_CHANGE>`
      : '';
    const content = `<USER_REQUEST>\n${turn.prompt}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: ${local}+00:00. This is the latest source of truth for time; do not attempt to get the time any other way.\n\nThe user's current state is as follows:\nActive Document: ${p.root}/${s.g.path()} (${LANGUAGE[p.lang]})\nCursor is on line: ${r.range(1, 300)}\n</ADDITIONAL_METADATA>${settings}`;
    const l = push('USER_EXPLICIT', 'USER_INPUT', 'DONE', turn.t, content);
    if (turn.needle !== undefined) needles.push([turn.needle, l]);
    if (r.chance(0.3)) {
      push(
        'SYSTEM',
        'EPHEMERAL_MESSAGE',
        'DONE',
        turn.t + 10,
        '<EPHEMERAL_MESSAGE>\nThe following is an <EPHEMERAL_MESSAGE> not actually sent by the user. It is provided by the system as a set of reminders and general important information to pay attention to. Do NOT respond to this message, just act accordingly.\n\n<artifact_reminder>\nYou have not updated task.md recently. Keep the checklist current as you make progress.\n</artifact_reminder>\n</EPHEMERAL_MESSAGE>',
      );
    }
    for (const mt of turn.model) {
      if (r.chance(0.005)) {
        push(
          'SYSTEM',
          'ERROR_MESSAGE',
          'ERROR',
          mt.t - 500,
          'Model provider is overloaded. Retrying in 5 seconds.',
          { error_code: 'RESOURCE_EXHAUSTED' },
        );
      }
      const rendered = mt.calls.map((c) => call(c, p.root, r.chance(0.2)));
      const l2 = push('MODEL', 'PLANNER_RESPONSE', 'DONE', mt.t, mt.text ?? '', {
        thinking: mt.reasoning ?? '',
        tool_calls: rendered.map((x) => ({ name: x.name, args: x.args })),
      });
      if (mt.needle !== undefined) needles.push([mt.needle, l2]);
      flushBackground(mt.t + 1);
      mt.calls.forEach((c, i) => {
        const t = c.t + c.durationMs;
        if (c.kind === 'shell' && c.background) {
          const id = r.uuid();
          push(
            'MODEL',
            rendered[i].type,
            'RUNNING',
            c.t + 500,
            `Command is running in the background with ID ${id}.`,
          );
          pending.push({ id, call: c });
        } else push('MODEL', rendered[i].type, c.isError ? 'ERROR' : 'DONE', t, resultContent(c, p.root));
      });
    }
    flushBackground(turn.model.at(-1)?.t ?? turn.t);
    if (r.chance(0.03))
      push('SYSTEM', 'CHECKPOINT', 'DONE', turn.t + 1, `Checkpoint ${step}: ${s.g.sentence(T.assistant)}`);
  }

  const dir = `.gemini/antigravity/brain/${s.id}`;
  const rel = `${dir}/.system_generated/logs/transcript_full.jsonl`;
  const files = [{ rel, data: out.text() }];
  if (r.chance(0.3)) {
    const items = Array.from(
      { length: r.range(3, 8) },
      () => `- [${r.chance(0.6) ? 'x' : ' '}] ${s.g.sentence(T.interim)}`,
    );
    files.push({ rel: `${dir}/task.md`, data: `# Task\n\n${items.join('\n')}\n` });
  }
  return { transcript: rel, files, needles };
}
