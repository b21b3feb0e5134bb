/**
 * A small strict TOML reader for tests: tables, arrays of tables, dotted keys, basic and literal
 * strings (single and multi-line), numbers, booleans, dates as strings, arrays and inline tables,
 * comments. It throws on anything malformed and on a table or key defined twice, which is what a
 * test of Tapedeck's TOML editor needs to know: the file it wrote is valid, and means what it should.
 */
type Table = Record<string, unknown>;

export function parseToml(text: string): Table {
  let i = 0;
  const root: Table = {};
  let current = root;
  const defined = new Set<string>();
  const fail = (msg: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new Error(`TOML line ${line}: ${msg}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const wsNl = () => {
    for (;;) {
      ws();
      if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
      if (text[i] === '\n' || text[i] === '\r') i++;
      else return;
    }
  };
  const endOfLine = () => {
    ws();
    if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
    if (i < text.length && text[i] !== '\n' && text[i] !== '\r') fail(`unexpected "${text[i]}"`);
  };

  function basic(multi: boolean): string {
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (multi && text.startsWith('"""', i)) {
        i += 3;
        return out.replace(/^\r?\n/, '');
      }
      const ch = text[i];
      if (!multi && ch === '"') {
        i++;
        return out;
      }
      if (!multi && ch === '\n') fail('newline in a string');
      if (ch === '\\') {
        const e = text[i + 1];
        const map: Record<string, string> = {
          n: '\n',
          t: '\t',
          r: '\r',
          '"': '"',
          '\\': '\\',
          b: '\b',
          f: '\f',
        };
        if (e in map) {
          out += map[e];
          i += 2;
        } else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(Number.parseInt(text.slice(i + 2, i + 2 + n), 16));
          i += 2 + n;
        } else if (multi && (e === '\n' || e === '\r' || e === ' ')) {
          i++;
          while (/\s/.test(text[i])) i++;
        } else fail(`bad escape \\${e}`);
        continue;
      }
      out += ch;
      i++;
    }
  }

  function literal(multi: boolean): string {
    const close = multi ? "'''" : "'";
    const end = text.indexOf(close, i);
    if (end === -1) fail('unterminated literal string');
    const s = text.slice(i, end);
    if (!multi && s.includes('\n')) fail('newline in a literal string');
    i = end + close.length;
    return multi ? s.replace(/^\r?\n/, '') : s;
  }

  function key(): string[] {
    const parts: string[] = [];
    for (;;) {
      ws();
      if (text[i] === '"') {
        i++;
        parts.push(basic(false));
      } else if (text[i] === "'") {
        i++;
        parts.push(literal(false));
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
        if (!m) fail('bad key');
        parts.push(m![0]);
        i += m![0].length;
      }
      ws();
      if (text[i] !== '.') return parts;
      i++;
    }
  }

  function value(): unknown {
    ws();
    if (text.startsWith('"""', i)) {
      i += 3;
      return basic(true);
    }
    if (text[i] === '"') {
      i++;
      return basic(false);
    }
    if (text.startsWith("'''", i)) {
      i += 3;
      return literal(true);
    }
    if (text[i] === "'") {
      i++;
      return literal(false);
    }
    if (text[i] === '[') {
      i++;
      const arr: unknown[] = [];
      for (;;) {
        wsNl();
        if (text[i] === ']') {
          i++;
          return arr;
        }
        arr.push(value());
        wsNl();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ] in an array');
      }
    }
    if (text[i] === '{') {
      i++;
      const t: Table = {};
      ws();
      if (text[i] === '}') {
        i++;
        return t;
      }
      for (;;) {
        const k = key();
        if (text[i] !== '=') fail('expected = in an inline table');
        i++;
        assign(t, k, value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return t;
        } else fail('expected , or } in an inline table');
      }
    }
    const m = /^[^\s,\]}#]+/.exec(text.slice(i));
    if (!m) fail('missing value');
    i += m![0].length;
    const v = m![0];
    if (v === 'true') return true;
    if (v === 'false') return false;
    if (/^[+-]?(\d[\d_]*)(\.\d+)?([eE][+-]?\d+)?$/.test(v)) return Number(v.replace(/_/g, ''));
    if (/^\d{4}-\d{2}-\d{2}/.test(v)) return v;
    return fail(`bad value ${v}`);
  }

  function assign(t: Table, k: string[], v: unknown) {
    let cur = t;
    for (const part of k.slice(0, -1)) {
      if (cur[part] === undefined) cur[part] = {};
      if (typeof cur[part] !== 'object' || Array.isArray(cur[part])) fail(`${part} is not a table`);
      cur = cur[part] as Table;
    }
    const last = k[k.length - 1];
    if (last in cur) fail(`key ${k.join('.')} defined twice`);
    cur[last] = v;
  }

  function openTable(path: string[], array: boolean): Table {
    let cur = root;
    path.forEach((part, n) => {
      const isLast = n === path.length - 1;
      if (isLast && array) {
        if (cur[part] === undefined) cur[part] = [];
        const arr = cur[part];
        if (!Array.isArray(arr)) fail(`${part} is not an array of tables`);
        const t: Table = {};
        (arr as Table[]).push(t);
        cur = t;
        return;
      }
      if (cur[part] === undefined) cur[part] = {};
      const next = cur[part];
      cur = (Array.isArray(next) ? next[next.length - 1] : next) as Table;
      if (typeof cur !== 'object') fail(`${part} is not a table`);
    });
    return cur;
  }

  for (;;) {
    wsNl();
    if (i >= text.length) return root;
    if (text[i] === '[') {
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      const path = key();
      if (!text.startsWith(array ? ']]' : ']', i)) fail('unclosed table header');
      i += array ? 2 : 1;
      const id = path.join('\u0000');
      if (!array) {
        if (defined.has(id)) fail(`table [${path.join('.')}] defined twice`);
        defined.add(id);
      }
      current = openTable(path, array);
      endOfLine();
      continue;
    }
    const k = key();
    if (text[i] !== '=') fail('expected =');
    i++;
    assign(current, k, value());
    endOfLine();
  }
}
