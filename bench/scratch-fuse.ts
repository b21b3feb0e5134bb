import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
const [kept, held, embFile] = process.argv.slice(2);
const E = JSON.parse(readFileSync(embFile!, 'utf8'));
const engine = createEngine(loadConfig({ db: `${kept}/${held}-tapedeck/tapedeck.db` }, { HOME: `${kept}/${held}-home`, TAPEDECK_HOME: `${kept}/${held}-tapedeck` }));
const qsFull = readFileSync(`eval/${held}/questions.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const key = (src: string, line: number) => `${src}:${line}`;
const stepBy = new Map<string, any>(E.steps.map((s: any) => [key(s.source, s.line), s]));
const dot = (a: number[], b: number[]) => { let x = 0; for (let i = 0; i < a.length; i++) x += a[i]! * b[i]!; return x; };
const ws = [0, 0.25, 0.5, 1, 2, 1000];
const res: Record<string, Record<string, { hit10: number; s1: number; hit5: number; n: number }>> = {};
for (let qi = 0; qi < qsFull.length; qi++) {
  const q = qsFull[qi]; const qe = E.qs[qi];
  const evKeys = new Set<string>(); const evThreads = new Set<string>();
  for (const ev of q.evidence as string[]) { const i = ev.lastIndexOf(':'); const f = ev.slice(0, i); const l = Number(ev.slice(i + 1));
    for (const s of E.steps) if (s.source.endsWith(f) && s.line === l) { evKeys.add(key(s.source, s.line)); evThreads.add(s.thread); } }
  const r = engine.transcripts.search(q.question, { limit: 50, now: q.date ? Date.parse(q.date) : undefined } as never);
  const td = new Map<string, number>(); let max = 0;
  for (const h of r.hits) { td.set(key(h.source.path, h.source.line), h.score); max = Math.max(max, h.score); }
  const cos = E.steps.map((s: any) => ({ k: key(s.source, s.line), c: dot(s.v, qe.v), thread: s.thread }));
  for (const w of ws) {
    const scored = cos.filter((x: any) => !process.env.RERANK || td.has(x.k)).map((x: any) => ({ ...x, s: (td.get(x.k) ?? 0) / (max || 1) + w * x.c }));
    scored.sort((a: any, b: any) => b.s - a.s);
    const kind = q.kind;
    const bucket = ((res[kind] ??= {})[w] ??= { hit10: 0, s1: 0, hit5: 0, n: 0 });
    bucket.n++;
    if (scored.slice(0, 10).some((x: any) => evKeys.has(x.k))) bucket.hit10++;
    if (scored.slice(0, 5).some((x: any) => evKeys.has(x.k))) bucket.hit5++;
    if (evThreads.has(scored[0].thread)) bucket.s1++;
  }
}
for (const [kind, byW] of Object.entries(res)) for (const [w, b] of Object.entries(byW)) console.log(kind, 'w=' + w, 'hit5', (b.hit5 / b.n).toFixed(3), 'hit10', (b.hit10 / b.n).toFixed(3), 'sess1', (b.s1 / b.n).toFixed(3));
