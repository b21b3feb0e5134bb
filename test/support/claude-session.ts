/**
 * A Claude Code session written in the real transcript shape (uuid chain, tool_use blocks in
 * assistant lines, tool_result blocks with is_error in user lines), for handoff tests.
 */
let seq = 0;
const id = (prefix: string) => `${prefix}${(++seq).toString(16).padStart(8, '0')}`;

export class ClaudeSession {
  private lines: string[] = [];
  private parent: string | null = null;
  private minute = 0;
  constructor(
    readonly sessionId: string,
    readonly cwd = '/home/dev/acme-shop',
  ) {}

  private push(type: 'user' | 'assistant', message: unknown, extra: Record<string, unknown> = {}): void {
    const uuid = `00000000-0000-4000-8000-${id('').padStart(12, '0')}`;
    const at = new Date(Date.UTC(2026, 2, 3, 9, this.minute++)).toISOString();
    this.lines.push(
      JSON.stringify({
        parentUuid: this.parent,
        isSidechain: false,
        userType: 'external',
        cwd: this.cwd,
        sessionId: this.sessionId,
        version: '2.0.14',
        gitBranch: 'fix/page-zero',
        type,
        message,
        uuid,
        timestamp: at,
        ...extra,
      }),
    );
    this.parent = uuid;
  }

  private assistant(content: unknown[]): void {
    this.push('assistant', {
      id: id('msg_'),
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content,
      stop_reason: null,
      usage: { input_tokens: 10, output_tokens: 20 },
    });
  }

  user(text: string): this {
    this.push('user', { role: 'user', content: text });
    return this;
  }

  say(text: string): this {
    this.assistant([{ type: 'text', text }]);
    return this;
  }

  /** A tool call and its result (`error` marks the result as failed, as Claude Code does). */
  tool(name: string, input: Record<string, unknown>, result: string, error = false): this {
    const toolId = id('toolu_');
    this.assistant([{ type: 'tool_use', id: toolId, name, input }]);
    this.push(
      'user',
      {
        role: 'user',
        content: [
          { tool_use_id: toolId, type: 'tool_result', content: result, ...(error ? { is_error: true } : {}) },
        ],
      },
      { toolUseResult: error ? `Error: ${result}` : result },
    );
    return this;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}
