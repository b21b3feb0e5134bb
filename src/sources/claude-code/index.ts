/** Claude Code source adapter: JSONL transcripts under `~/.claude/projects`. */
import type { SourceAdapter } from '../../ports/source.js';
import { locateClaudeCode } from './locate.js';
import { ClaudeCodeLineParser } from './parse.js';

/** Adapter for Claude Code (`claude-code`). All its transcripts are line files. */
export const claudeCodeAdapter: SourceAdapter = {
  id: 'claude-code',
  displayName: 'Claude Code',
  locate: locateClaudeCode,
  createLineParser: (path, state) => new ClaudeCodeLineParser(path, state),
  parseDocument: (path, _text, sink) => {
    // locate never yields documents for Claude Code; say so instead of silently indexing nothing.
    sink.issue({ path, message: 'Claude Code transcripts are JSONL line files, not documents' });
  },
};
