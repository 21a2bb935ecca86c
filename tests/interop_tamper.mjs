// interop_tamper.mjs — makes the broken inputs tests/cli_interop.sh feeds to
// cuzk and snarkjs: altered snarkjs proof / public-signal JSON and altered
// .wtns files. Plain Node (BigInt); knows the BLS12-381 moduli and the wtns
// layout (iden3 binary: "wtns", version, section count, then sections of
// id:u32, size:u64, body; section 1 = n8, prime, count; section 2 = values,
// n8 bytes little-endian each) and nothing about cuzk.
//
//   node interop_tamper.mjs proof  IN OUT MODE [OTHER]   see PROOF_MODES
//   node interop_tamper.mjs public IN OUT INDEX          public[INDEX] += 1 (mod r)
//   node interop_tamper.mjs wtns   IN OUT INDEX          witness[INDEX] += 1 (mod prime)
//   node interop_tamper.mjs wtns-count IN                prints the witness length
//   node interop_tamper.mjs reorder IN OUT               any iden3 binary file
//        (.zkey, .wtns, .r1cs) with its sections written in reverse order:
//        still valid, since readers must find sections by id
//   node interop_tamper.mjs zkey-nonsub IN OUT SECTION  a .zkey whose first
//        non-zero G1 point of SECTION (5 = A, 8 = C, 9 = H) is replaced by a
//        point on the curve y^2 = x^3 + 4 but outside the order-r subgroup
//        (x = 4; zkey points are x, y times 2^384 mod q, 48 bytes LE each)
//   node interop_tamper.mjs bellproof IN OUT            a bellperson proof file
//        (192 bytes: A, B, C compressed) as snarkjs proof.json; decoding by
//        @noble/curves (from .npm-local), so snarkjs can check it
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

const mod = (a, m) => ((a % m) + m) % m;
function pow(b, e, m) {
  let r = 1n;
  b = mod(b, m);
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

// A point on y^2 = x^3 + 4 over Fp that is (with overwhelming probability)
// not in the order-r subgroup: the curve has cofactor ~2^126.
function offSubgroupG1() {
  for (let x = 5n; ; x++) {
    const rhs = mod(x * x * x + 4n, P);
    const y = pow(rhs, (P + 1n) / 4n, P); // p = 3 mod 4
    if ((y * y) % P !== rhs) continue;
    return [x.toString(), y.toString(), "1"];
  }
}

const PROOF_MODES = {
  // another proof's A (a valid point, wrong proof)
  "swap-a": (p, o) => { p.pi_a = o.pi_a; },
  // A negated: y -> p - y (on the curve, wrong proof)
  "neg-a": (p) => { p.pi_a[1] = (P - BigInt(p.pi_a[1])).toString(); },
  // C moved off the curve: y + 1
  "offcurve-c": (p) => { p.pi_c[1] = mod(BigInt(p.pi_c[1]) + 1n, P).toString(); },
  // B moved off the twist: x.c0 + 1
  "offcurve-b": (p) => { p.pi_b[0][0] = mod(BigInt(p.pi_b[0][0]) + 1n, P).toString(); },
  // A on the curve but outside the prime-order subgroup
  "subgroup-a": (p) => { p.pi_a = offSubgroupG1(); },
  // A.x + p: same residue, not a canonical field element
  "noncanon-a": (p) => { p.pi_a[0] = (BigInt(p.pi_a[0]) + P).toString(); },
  // a coordinate of 2^384 + x: far out of range
  "huge-c": (p) => { p.pi_c[0] = ((1n << 384n) + BigInt(p.pi_c[0])).toString(); },
  "leading-zero-a": (p) => { p.pi_a[0] = "0" + p.pi_a[0]; },
  "hex-a": (p) => { p.pi_a[0] = "0x" + BigInt(p.pi_a[0]).toString(16); },
  "negative-a": (p) => { p.pi_a[0] = "-" + p.pi_a[0]; },
  "empty-a": (p) => { p.pi_a[0] = ""; },
  "junk-a": (p) => { p.pi_a[0] = p.pi_a[0].slice(0, 20) + "x" + p.pi_a[0].slice(21); },
  "number-a": (p) => { p.pi_a[0] = 7; },
  "short-b": (p) => { p.pi_b = p.pi_b.slice(0, 1); },
  "missing-c": (p) => { delete p.pi_c; },
  "protocol": (p) => { p.protocol = "plonk"; },
  "curve": (p) => { p.curve = "bn128"; },
};

function wtnsLayout(buf) {
  if (buf.toString("latin1", 0, 4) !== "wtns") throw new Error("not a wtns file");
  const nSec = buf.readUInt32LE(8);
  let off = 12, n8 = 0, prime = 0n, count = 0, data = -1;
  for (let s = 0; s < nSec; s++) {
    const id = buf.readUInt32LE(off), size = Number(buf.readBigUInt64LE(off + 4));
    const body = off + 12;
    if (id === 1) {
      n8 = buf.readUInt32LE(body);
      for (let i = n8 - 1; i >= 0; i--) prime = (prime << 8n) | BigInt(buf[body + 4 + i]);
      count = buf.readUInt32LE(body + 4 + n8);
    } else if (id === 2) data = body;
    off = body + size;
  }
  if (!n8 || data < 0) throw new Error("wtns without header or data section");
  return { n8, prime, count, data };
}

const [cmd, inp, out, arg, other] = process.argv.slice(2);
if (cmd === "proof") {
  const p = JSON.parse(readFileSync(inp, "utf8"));
  const f = PROOF_MODES[arg];
  if (!f) throw new Error(`unknown mode ${arg}; modes: ${Object.keys(PROOF_MODES).join(" ")}`);
  f(p, other ? JSON.parse(readFileSync(other, "utf8")) : null);
  writeFileSync(out, JSON.stringify(p, null, 1));
} else if (cmd === "public") {
  const pub = JSON.parse(readFileSync(inp, "utf8"));
  const i = Number(arg);
  pub[i] = mod(BigInt(pub[i]) + 1n, R).toString();
  writeFileSync(out, JSON.stringify(pub, null, 1));
} else if (cmd === "wtns") {
  const buf = readFileSync(inp);
  const { n8, prime, count, data } = wtnsLayout(buf);
  const i = Number(arg);
  if (i >= count) throw new Error(`index ${i} >= ${count}`);
  const at = data + i * n8;
  let v = 0n;
  for (let k = n8 - 1; k >= 0; k--) v = (v << 8n) | BigInt(buf[at + k]);
  v = mod(v + 1n, prime);
  for (let k = 0; k < n8; k++, v >>= 8n) buf[at + k] = Number(v & 0xffn);
  writeFileSync(out, buf);
} else if (cmd === "reorder") {
  const buf = readFileSync(inp);
  const nSec = buf.readUInt32LE(8), secs = [];
  let off = 12;
  for (let s = 0; s < nSec; s++) {
    const size = Number(buf.readBigUInt64LE(off + 4));
    secs.push(buf.subarray(off, off + 12 + size));
    off += 12 + size;
  }
  writeFileSync(out, Buffer.concat([buf.subarray(0, 12), ...secs.reverse()]));
} else if (cmd === "bellproof") {
  const here = new URL(".", import.meta.url).pathname;
  const { bls12_381 } = createRequire(here)(here + "../.npm-local/node_modules/@noble/curves/bls12-381.js");
  const b = readFileSync(inp);
  if (b.length !== 192) throw new Error(`${inp}: ${b.length} bytes, want 192`);
  const hex = (u) => Buffer.from(u).toString("hex");
  const a = bls12_381.G1.ProjectivePoint.fromHex(hex(b.subarray(0, 48))).toAffine();
  const bb = bls12_381.G2.ProjectivePoint.fromHex(hex(b.subarray(48, 144))).toAffine();
  const c = bls12_381.G1.ProjectivePoint.fromHex(hex(b.subarray(144, 192))).toAffine();
  const s = (v) => v.toString();
  writeFileSync(out, JSON.stringify({
    pi_a: [s(a.x), s(a.y), "1"],
    pi_b: [[s(bb.x.c0), s(bb.x.c1)], [s(bb.y.c0), s(bb.y.c1)], ["1", "0"]],
    pi_c: [s(c.x), s(c.y), "1"],
    protocol: "groth16", curve: "bls12381",
  }, null, 1));
} else if (cmd === "zkey-nonsub") {
  const buf = Buffer.from(readFileSync(inp));
  const want = Number(arg);
  let off = 12, done = false;
  const x = 4n, y = pow(mod(x * x * x + 4n, P), (P + 1n) / 4n, P); /* q = 3 mod 4 */
  if (mod(y * y, P) !== mod(x * x * x + 4n, P)) throw new Error("x = 4 gives no point");
  const le48 = (v) => { const o = Buffer.alloc(48); for (let i = 0; i < 48; i++) { o[i] = Number(v & 0xffn); v >>= 8n; } return o; };
  const R384 = 1n << 384n;
  for (let s = 0; s < buf.readUInt32LE(8) && !done; s++) {
    const id = buf.readUInt32LE(off), size = Number(buf.readBigUInt64LE(off + 4));
    if (id === want) {
      for (let i = 0; i + 96 <= size; i += 96) {
        const at = off + 12 + i;
        if (!buf.subarray(at, at + 96).some((b) => b !== 0)) continue;
        le48(mod(x * R384, P)).copy(buf, at);
        le48(mod(y * R384, P)).copy(buf, at + 48);
        done = true;
        break;
      }
    }
    off += 12 + size;
  }
  if (!done) throw new Error(`${inp}: no non-zero point in section ${want}`);
  writeFileSync(out, buf);
} else if (cmd === "wtns-count") {
  console.log(wtnsLayout(readFileSync(inp)).count);
} else {
  console.error("usage: interop_tamper.mjs proof|public|wtns|wtns-count|reorder|zkey-nonsub|bellproof ...");
  process.exit(2);
}
