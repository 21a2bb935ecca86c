#!/usr/bin/env node
// gen-vectors.mjs — writes a BLS12-381 known-answer vector file for
// `cuzk vectors check`, with every expected answer computed by @noble/curves.
//
// Usage: node scripts/gen-vectors.mjs [--seed S] [--random N] [--pairings N]
//                                     [--out FILE] [--noble DIR]
//   --seed S      any string; the same seed and noble version give the same file
//   --random N    random cases per arithmetic op (default 8)
//   --pairings N  random pairing checks of each kind (default 3)
//   --noble DIR   the @noble/curves package folder
//                 (default .npm-local/node_modules/@noble/curves)
//
// How it works: a seeded xoshiro128** stream draws every random value, so the
// output is reproducible. Each op gets fixed edge cases (0, 1, p-1, r-1,
// infinity, P+P, P+(-P), k = 0, 1, r, > r, ...) plus random ones. Answers come
// from noble: field ops from bls12_381.fields, group ops from G1/G2.Point,
// decodes from Point.fromHex, pairing checks from pairingBatch.
//
// Works with noble 1.9.x (the version scripts/bootstrap pins) and 2.x.
//
// Decoding: `valid` is the verdict of the full ZCash rules. noble 1.x decides
// on-curve, square-root and subgroup membership; two rules it does not enforce
// are checked here on the bytes, independently of noble: the flag bits
// (infinity with the sort bit or with non-zero bytes, sort bit on an
// uncompressed point, (0, 0) without the infinity flag, which noble reads as
// infinity) and canonical coordinates (each < p). Where this changes
// noble's verdict the case carries "noble_valid" and a "note".
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---------- arguments ----------
const opts = { seed: '1', random: 8, pairings: 3, out: null,
  noble: join(ROOT, '.npm-local/node_modules/@noble/curves') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i], v = argv[i + 1];
  if (a === '--seed') { opts.seed = v; i++; }
  else if (a === '--random') { opts.random = Number(v); i++; }
  else if (a === '--pairings') { opts.pairings = Number(v); i++; }
  else if (a === '--out') { opts.out = v; i++; }
  else if (a === '--noble') { opts.noble = resolve(v); i++; }
  else { console.error(`gen-vectors: unknown argument ${a}`); process.exit(2); }
}
if (opts.seed === undefined || !Number.isInteger(opts.random) || opts.random < 0 ||
    !Number.isInteger(opts.pairings) || opts.pairings < 0) {
  console.error('gen-vectors: bad --seed/--random/--pairings'); process.exit(2);
}

// ---------- noble ----------
const nobleVersion = JSON.parse(readFileSync(join(opts.noble, 'package.json'), 'utf8')).version;
const entry = ['esm/bls12-381.js', 'bls12-381.js'].map((f) => join(opts.noble, f)).find(existsSync);
if (!entry) { console.error(`gen-vectors: no bls12-381.js under ${opts.noble}`); process.exit(2); }
const { bls12_381: bls } = await import(pathToFileURL(entry).href);
const { Fp, Fp2, Fp12, Fr } = bls.fields;
const G1 = bls.G1.Point ?? bls.G1.ProjectivePoint;
const G2 = bls.G2.Point ?? bls.G2.ProjectivePoint;
const P = Fp.ORDER, R = Fr.ORDER;

// ---------- seeded PRNG: xoshiro128** over a hash of the seed string ----------
function makeRng(seedStr) {
  let h = 0x9e3779b9 ^ seedStr.length;
  const s = new Uint32Array(4);
  for (let k = 0; k < 4; k++) {
    for (let i = 0; i < seedStr.length; i++) h = Math.imul(h ^ seedStr.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ (k + 1) * 0x27d4eb2f;
    s[k] = (h ^ (h >>> 16)) >>> 0;
  }
  if (!(s[0] | s[1] | s[2] | s[3])) s[0] = 1;
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const next = () => {
    const r = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 11);
    return r;
  };
  return {
    u32: next,
    bits(n) { let x = 0n; for (let i = 0; i < n; i += 32) x = (x << 32n) | BigInt(next()); return x & ((1n << BigInt(n)) - 1n); },
    below(m) { return this.bits(m.toString(2).length + 64) % m; },
    pick(arr) { return arr[next() % arr.length]; },
  };
}
const rng = makeRng(String(opts.seed));

// ---------- encodings (written here from the ZCash rules) ----------
const hx = (x, nbytes) => x.toString(16).padStart(2 * nbytes, '0');
const hexToBytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const setFlags = (h, f) => hx(parseInt(h.slice(0, 2), 16) | f, 1) + h.slice(2);
const big = (x) => x > (P - 1n) / 2n;                 // "lexicographically largest"
const big2 = (y) => (y.c1 !== 0n ? big(y.c1) : big(y.c0));
// raw ZCash encodings of any (x, y), with no validity check
const g1Raw = (x, y, comp) => comp ? setFlags(hx(x, 48), 0x80 | (big(y) ? 0x20 : 0)) : hx(x, 48) + hx(y, 48);
const g2Raw = (x, y, comp) => comp
  ? setFlags(hx(x.c1, 48) + hx(x.c0, 48), 0x80 | (big2(y) ? 0x20 : 0))
  : hx(x.c1, 48) + hx(x.c0, 48) + hx(y.c1, 48) + hx(y.c0, 48);

const grp = {
  g1: { Pt: G1, F: Fp, L: 48, raw: g1Raw, rhs: (x) => Fp.add(Fp.pow(x, 3n), 4n),
        rand: () => Fp.create(rng.below(P)) },
  g2: { Pt: G2, F: Fp2, L: 96, raw: g2Raw,
        rhs: (x) => Fp2.add(Fp2.pow(x, 3n), Fp2.fromBigTuple([4n, 4n])),
        rand: () => Fp2.fromBigTuple([rng.below(P), rng.below(P)]) },
};
// noble 2.x will not encode the point at infinity: write the ZCash constant
const infL = (pt) => (pt instanceof G1 ? 48 : 96);
const comp = (pt) => pt.is0() ? 'c0' + '00'.repeat(infL(pt) - 1) : pt.toHex(true);
const uncomp = (pt) => pt.is0() ? '40' + '00'.repeat(2 * infL(pt) - 1) : pt.toHex(false);
const randScalar = () => 1n + rng.below(R - 1n);
const randPoint = (g) => grp[g].Pt.BASE.multiply(randScalar());
const mulK = (pt, k) => { const m = k % R; return m === 0n || pt.is0() ? pt.constructor.ZERO : pt.multiply(m); };

// The ZCash rules noble 1.x does not apply (flags, canonical coordinates):
// returns null when they pass, else the reason.
function zcashByteRule(g, hex) {
  const b = hexToBytes(hex), L = grp[g].L;
  if (b.length === 0) return null;                     // length: noble rejects too
  const c = b[0] & 0x80, inf = b[0] & 0x40, s = b[0] & 0x20;
  const want = c ? L : 2 * L;
  if (b.length !== want) return null;
  const v = Uint8Array.from(b); v[0] &= 0x1f;
  if (inf) {
    if (s) return 'infinity with the sort bit set';
    if (v.some((x) => x !== 0)) return 'infinity with non-zero bytes';
    return null;
  }
  if (!c && s) return 'sort bit set on an uncompressed point';
  if (!c && v.every((x) => x === 0)) return 'all-zero coordinates without the infinity flag';
  for (let i = 0; i < v.length; i += 48) {
    let x = 0n; for (let j = 0; j < 48; j++) x = (x << 8n) | BigInt(v[i + j]);
    if (x >= P) return 'coordinate >= p (non-canonical)';
  }
  return null;
}

// ---------- cases ----------
const cases = [];
const add = (c) => cases.push(c);

// field ops; inputs sometimes written loosely (short, 0x, upper case) to
// exercise the reader; out is always canonical big-endian
function loose(x, nbytes, i) {
  switch (i % 7) {
    case 3: return x.toString(16);                    // minimal (odd length possible)
    case 5: return '0x' + hx(x, nbytes).toUpperCase();
    default: return hx(x, nbytes);
  }
}
function fieldOps(name, F, nbytes) {
  const M = F.ORDER;
  const edges = [0n, 1n, 2n, M - 1n, M - 2n, (M - 1n) / 2n, (M + 1n) / 2n, (1n << BigInt(8 * nbytes - 8)) + 7n];
  let i = 0;
  for (const op of ['mul', 'add']) {
    const f = op === 'mul' ? (a, b) => F.mul(a, b) : (a, b) => F.add(a, b);
    const pairs = [];
    for (const a of edges) pairs.push([a, rng.pick(edges)]);
    for (let k = 0; k < opts.random; k++) pairs.push([rng.below(M), rng.below(M)]);
    for (const [a, b] of pairs)
      add({ op: `${name}_${op}`, a: loose(a, nbytes, i++), b: loose(b, nbytes, i++), out: hx(f(a, b), nbytes) });
  }
  const invs = edges.filter((x) => x !== 0n);          // noble refuses 1/0
  for (let k = 0; k < opts.random; k++) invs.push(1n + rng.below(M - 1n));
  for (const a of invs) add({ op: `${name}_inv`, a: loose(a, nbytes, i++), out: hx(F.inv(a), nbytes) });
}
fieldOps('fp', Fp, 48);
fieldOps('fr', Fr, 32);

for (const g of ['g1', 'g2']) {
  const { Pt } = grp[g];
  const Z = Pt.ZERO, B = Pt.BASE;
  // addition
  const A = randPoint(g), C = randPoint(g);
  const addPairs = [[B, B], [A, A], [A, A.negate()], [A, Z], [Z, A], [Z, Z], [B, B.negate()], [A, C]];
  for (let k = 0; k < opts.random; k++) addPairs.push([randPoint(g), randPoint(g)]);
  for (const [p, q] of addPairs) add({ op: `${g}_add`, p: comp(p), q: comp(q), out: comp(p.add(q)) });
  // scalar multiplication: out = (k mod r) P
  const ks = [0n, 1n, 2n, R - 1n, R, R + 1n, 2n * R + 5n, (1n << 256n) - 1n, (1n << 511n) + rng.bits(500), 5n];
  for (let k = 0; k < opts.random; k++) ks.push(rng.bits(255));
  ks.forEach((k, i) => {
    const p = i === ks.length - 1 ? Z : (i % 3 === 0 ? B : randPoint(g));
    const kh = i === 9 ? '0x5' : (i % 4 === 1 ? k.toString(16) : hx(k, Math.max(1, Math.ceil(k.toString(16).length / 2))));
    add({ op: `${g}_mul`, p: comp(p), k: kh, out: comp(mulK(p, k)) });
  });
}

// decoding
function decodeCase(g, hex, what) {
  const { Pt } = grp[g];
  let ok = false, pt = null, why = '';
  try { pt = Pt.fromHex(hex); ok = true; } catch (e) { why = e.message; }
  const rule = zcashByteRule(g, hex);
  const valid = ok && rule === null;
  const c = { op: `${g}_decode`, bytes: hex, valid };
  if (valid) c.out = uncomp(pt);
  if (ok && rule) { c.noble_valid = true; c.note = `${what}: noble accepts, ZCash rule: ${rule}`; }
  else c.note = valid ? what : `${what}: ${rule ?? why}`;
  add(c);
}
for (const g of ['g1', 'g2']) {
  const { Pt, F, L, raw, rhs, rand } = grp[g];
  const B = Pt.BASE, p1 = randPoint(g), p2 = randPoint(g);
  const aff = (pt) => pt.toAffine();
  // valid
  for (const pt of [B, p1, p2, B.negate()]) {
    decodeCase(g, comp(pt), 'valid compressed');
    decodeCase(g, uncomp(pt), 'valid uncompressed');
  }
  decodeCase(g, 'c0' + '00'.repeat(L - 1), 'infinity compressed');
  decodeCase(g, '40' + '00'.repeat(2 * L - 1), 'infinity uncompressed');
  decodeCase(g, comp(p1).toUpperCase(), 'valid compressed, upper-case hex');
  // flags
  const c1 = comp(p1), u1 = uncomp(p1);
  decodeCase(g, hx(parseInt(c1.slice(0, 2), 16) & 0x7f, 1) + c1.slice(2), 'compressed length without the compression flag');
  decodeCase(g, setFlags(u1, 0x80), 'uncompressed length with the compression flag');
  decodeCase(g, setFlags(u1, 0x20), 'uncompressed with the sort flag');
  decodeCase(g, setFlags(u1, 0x40), 'uncompressed point with the infinity flag');
  decodeCase(g, 'e0' + '00'.repeat(L - 1), 'compressed infinity with the sort flag');
  decodeCase(g, 'c0' + '00'.repeat(L - 2) + '01', 'compressed infinity with non-zero x');
  decodeCase(g, setFlags(c1, 0x40), 'compressed point with the infinity flag');
  decodeCase(g, '60' + '00'.repeat(2 * L - 1), 'uncompressed infinity with the sort flag');
  decodeCase(g, '40' + '00'.repeat(2 * L - 2) + '01', 'uncompressed infinity with non-zero y');
  decodeCase(g, '00'.repeat(2 * L), 'uncompressed all zero without the infinity flag');
  // lengths
  decodeCase(g, c1.slice(0, -2), 'compressed one byte short');
  decodeCase(g, c1 + '00', 'compressed one byte long');
  decodeCase(g, '', 'empty');
  // non-canonical coordinates: x + p where it still fits in 381 bits
  const fits = (v) => v + P < (1n << 381n);
  let q = null;
  for (let k = 0; k < 64 && !q; k++) {
    const c = randPoint(g), x = aff(c).x;
    if (g === 'g1' ? fits(x) : fits(x.c1)) q = c;
  }
  if (q) {
    const x = aff(q).x, y = aff(q).y;
    if (g === 'g1') {
      decodeCase(g, setFlags(hx(x + P, 48), 0x80 | (big(y) ? 0x20 : 0)), 'compressed x + p');
      decodeCase(g, hx(x + P, 48) + hx(y, 48), 'uncompressed x + p');
    } else {
      decodeCase(g, setFlags(hx(x.c1 + P, 48) + hx(x.c0, 48), 0x80 | (big2(y) ? 0x20 : 0)), 'compressed x.c1 + p');
      decodeCase(g, hx(x.c1 + P, 48) + hx(x.c0, 48) + hx(y.c1, 48) + hx(y.c0, 48), 'uncompressed x.c1 + p');
    }
  }
  decodeCase(g, setFlags(hx(P, 48), 0x80) + (g === 'g2' ? '00'.repeat(48) : ''), 'compressed x = p');
  decodeCase(g, '9f' + 'ff'.repeat(L - 1), 'compressed all-ones x');
  // off the curve / no square root / outside the subgroup
  let noRoot = null, offSub = null;
  for (let k = 0; k < 256 && !(noRoot && offSub); k++) {
    const x = rand();
    let y = null;
    try { y = F.sqrt(rhs(x)); } catch { y = null; }
    if (y === null || y === undefined) { noRoot ??= x; continue; }
    if (!F.eql(F.sqr(y), rhs(x))) { noRoot ??= x; continue; }
    if (!offSub && !new Pt(x, y, F.ONE).isTorsionFree()) offSub = { x, y };
  }
  if (noRoot !== null) decodeCase(g, raw(noRoot, F.ONE, true), 'compressed x with no curve point');
  const a1 = aff(p1);
  decodeCase(g, raw(a1.x, F.add(a1.y, F.ONE), false), 'uncompressed (x, y + 1) off the curve');
  if (offSub) {
    decodeCase(g, raw(offSub.x, offSub.y, true), 'compressed curve point outside the subgroup');
    decodeCase(g, raw(offSub.x, offSub.y, false), 'uncompressed curve point outside the subgroup');
  }
  for (let k = 0; k < Math.min(opts.random, 4); k++) {   // random bytes, flags set plausibly
    const n = rng.pick([L, 2 * L]);
    let h = ''; for (let i = 0; i < n; i++) h += hx(BigInt(rng.u32() & 255), 1);
    h = hx((parseInt(h.slice(0, 2), 16) & 0x1f) | (n === L ? 0x80 : 0), 1) + h.slice(2);
    decodeCase(g, h, 'random bytes');
  }
}

// pairing checks: out = (product of the pairings == 1), from noble's
// pairingBatch; noble refuses the point at infinity, whose pairings are 1, so
// such pairs are left out of what noble is asked
function pairingCase(pairs, what) {
  const live = pairs.filter(([a, b]) => !a.is0() && !b.is0());
  const f = bls.pairingBatch(live.map(([a, b]) => ({ g1: a, g2: b })));
  add({ op: 'pairing_check', pairs: pairs.map(([a, b]) => [comp(a), comp(b)]), out: Fp12.eql(f, Fp12.ONE), note: what });
}
{
  const Pg = G1.BASE, Qg = G2.BASE;
  for (let k = 0; k < opts.pairings; k++) {
    const a = randScalar(), b = randScalar(), c = randScalar();
    const p = randPoint('g1'), q = randPoint('g2');
    pairingCase([[p.multiply(a), q], [p.negate(), q.multiply(a)]], 'e(aP,Q) e(-P,aQ)');
    pairingCase([[p.multiply(a), q], [p, q.multiply(a)]], 'e(aP,Q) e(P,aQ)');
    pairingCase([[Pg.multiply(a), Qg.multiply(b)], [Pg.multiply(c), Qg],
      [Pg.negate(), Qg.multiply(Fr.add(Fr.mul(a, b), c))]], 'e(aG,bH) e(cG,H) e(-G,(ab+c)H)');
    pairingCase([[p, q]], 'e(P,Q)');
  }
  pairingCase([], 'empty product');
  pairingCase([[G1.ZERO, Qg]], 'e(0,Q)');
  pairingCase([[Pg, G2.ZERO]], 'e(P,0)');
  pairingCase([[G1.ZERO, Qg], [Pg, Qg.negate()], [Pg.negate(), Qg]], 'e(0,Q) e(P,-Q) e(-P,Q)');
  pairingCase([[G1.ZERO, Qg], [Pg, Qg]], 'e(0,Q) e(P,Q)');
  pairingCase([[Pg, Qg], [Pg, Qg.negate()]], 'e(P,Q) e(P,-Q)');
  pairingCase([[Pg, Qg], [Pg, Qg]], 'e(P,Q)^2');
}

// ---------- output: one case per line ----------
const head = { curve: 'bls12-381', generator: 'scripts/gen-vectors.mjs', noble_curves: nobleVersion,
  seed: String(opts.seed), random: opts.random, pairings: opts.pairings };
let text = '{\n';
for (const [k, v] of Object.entries(head)) text += `  ${JSON.stringify(k)}: ${JSON.stringify(v)},\n`;
text += '  "cases": [\n' + cases.map((c) => '    ' + JSON.stringify(c)).join(',\n') + '\n  ]\n}\n';
if (opts.out) writeFileSync(opts.out, text); else process.stdout.write(text);
console.error(`gen-vectors: ${cases.length} cases (seed ${opts.seed}, noble ${nobleVersion})`);
