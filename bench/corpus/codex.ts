/**
 * Codex CLI: ~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl, every line
 * {timestamp, type, payload}. Injected context (AGENTS.md instructions, <environment_context>)
 * arrives as user messages before the real prompt; the prompt is written twice (response_item and
 * event_msg.user_message), as are assistant messages and reasoning; tools are `shell` function
 * calls with JSON-string arguments, edits go through apply_patch.
 */
import type { Session } from './session.js';
import type { ToolCall } from './tools.js';
import { iso, JsonLines, type WriterOutput } from './writer.js';

const CLI_VERSIONS = ['0.39.0', '0.42.0', '0.46.0', '0.50.0', '0.53.0'];
const MODELS = ['gpt-5-codex', 'gpt-5', 'gpt-5.1-codex', 'o4-mini'];

function shellArgs(call: ToolCall): string[] {
  switch (call.kind) {
    case 'shell':
      return ['bash', '-lc', call.command ?? ''];
    case 'read':
      return ['bash', '-lc', `sed -n '1,${Math.max(40, call.output.split('\n').length)}p' ${call.path}`];
    case 'grep':
      return ['bash', '-lc', `rg -n "${call.pattern}" ${call.path}`];
    case 'list':
      return ['bash', '-lc', `rg --files ${call.path}`];
    case 'edit': {
      const minus = (call.oldText ?? '').split('\n').map((l) => `-${l}`);
      const plus = (call.newText ?? '').split('\n').map((l) => `+${l}`);
      return [
        'apply_patch',
        `*** Begin Patch\n*** Update File: ${call.path}\n@@\n${[...minus, ...plus].join('\n')}\n*** End Patch\n`,
      ];
    }
    case 'write': {
      const plus = (call.content ?? '').split('\n').map((l) => `+${l}`);
      return [
        'apply_patch',
        `*** Begin Patch\n*** Add File: ${call.path}\n${plus.join('\n')}\n*** End Patch\n`,
      ];
    }
  }
}

function shellOutput(call: ToolCall): string {
  if (call.kind === 'edit' && !call.isError) return `Success. Updated the following files:\nM ${call.path}\n`;
  if (call.kind === 'write') return `Success. Updated the following files:\nA ${call.path}\n`;
  return call.output;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

export function writeCodex(s: Session): WriterOutput {
  const r = s.r;
  const p = s.project;
  const out = new JsonLines();
  const needles: [number, number][] = [];
  const model = r.pick(MODELS);
  const effort = r.pick(['low', 'medium', 'medium', 'high']);
  const line = (t: number, type: string, payload: unknown) => out.push({ timestamp: iso(t), type, payload });
  let t0 = s.start - 2_000;

  line(t0, 'session_meta', {
    id: s.id,
    timestamp: iso(t0),
    cwd: p.root,
    originator: 'codex_cli_rs',
    cli_version: r.pick(CLI_VERSIONS),
    instructions: null,
    source: 'cli',
    model_provider: 'openai',
    git: { commit_hash: r.hex(40), branch: s.branch, repository_url: `git@github.com:dev/${p.name}.git` },
  });
  if (r.chance(0.5)) {
    line(t0, 'response_item', {
      type: 'message',
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: `<user_instructions>\n\n# AGENTS.md instructions for ${p.root}\n\n<INSTRUCTIONS>\n- Run \`${p.commands.test}\` before you finish.\n- Use \`${p.commands.lint}\` and keep the diff minimal.\n- Never commit to ${p.branches[0]} directly.\n</INSTRUCTIONS>\n</user_instructions>`,
        },
      ],
    });
  }
  line(t0, 'response_item', {
    type: 'message',
    role: 'user',
    content: [
      {
        type: 'input_text',
        text: `<environment_context>\n  <cwd>${p.root}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>`,
      },
    ],
  });

  let total = 0;
  for (const turn of s.turns) {
    line(turn.t, 'turn_context', {
      cwd: p.root,
      approval_policy: 'on-request',
      sandbox_policy: {
        mode: 'workspace-write',
        network_access: false,
        exclude_tmpdir_env_var: false,
        exclude_slash_tmp: false,
      },
      model,
      effort,
      summary: 'auto',
    });
    const promptLine = line(turn.t, 'response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: turn.prompt }],
    });
    if (turn.needle !== undefined) needles.push([turn.needle, promptLine]);
    line(turn.t, 'event_msg', { type: 'user_message', message: turn.prompt, images: [] });

    for (const mt of turn.model) {
      t0 = mt.t;
      if (mt.reasoning !== undefined) {
        line(t0, 'response_item', {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: mt.reasoning }],
          content: null,
          encrypted_content: `gAAAAA${r.base62(160)}`,
        });
        line(t0, 'event_msg', { type: 'agent_reasoning', text: mt.reasoning });
      }
      if (mt.text !== undefined) {
        const l = line(t0, 'response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: mt.text }],
        });
        if (mt.needle !== undefined) needles.push([mt.needle, l]);
        line(t0, 'event_msg', { type: 'agent_message', message: mt.text });
      }
      for (const call of mt.calls) {
        const callId = `call_${r.base62(24)}`;
        line(call.t, 'response_item', {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: shellArgs(call), workdir: p.root, timeout_ms: 120_000 }),
          call_id: callId,
        });
        line(call.t + call.durationMs, 'response_item', {
          type: 'function_call_output',
          call_id: callId,
          output: JSON.stringify({
            output: shellOutput(call),
            metadata: { exit_code: call.exitCode, duration_seconds: Math.round(call.durationMs / 100) / 10 },
          }),
        });
      }
      const input = r.range(2_000, 60_000);
      const output = r.range(50, 4_000);
      total += input + output;
      const usage = (i: number, o: number) => ({
        input_tokens: i,
        cached_input_tokens: Math.floor(i * 0.8),
        output_tokens: o,
        reasoning_output_tokens: Math.floor(o / 3),
        total_tokens: i + o,
      });
      line(t0 + 500, 'event_msg', {
        type: 'token_count',
        info: {
          total_token_usage: usage(Math.floor(total * 0.9), Math.floor(total * 0.1)),
          last_token_usage: usage(input, output),
          model_context_window: 272_000,
        },
        rate_limits: {
          primary: {
            used_percent: r.range(0, 100),
            window_minutes: 300,
            resets_in_seconds: r.range(60, 18_000),
          },
          secondary: {
            used_percent: r.range(0, 100),
            window_minutes: 10_080,
            resets_in_seconds: r.range(3_600, 600_000),
          },
        },
      });
    }
  }

  const d = new Date(s.start);
  const y = d.getUTCFullYear();
  const mo = pad(d.getUTCMonth() + 1);
  const da = pad(d.getUTCDate());
  const stamp = `${y}-${mo}-${da}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}`;
  const rel = `.codex/sessions/${y}/${mo}/${da}/rollout-${stamp}-${s.id}.jsonl`;
  return { transcript: rel, files: [{ rel, data: out.text() }], needles };
}
