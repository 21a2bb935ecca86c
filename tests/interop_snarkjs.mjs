// interop_snarkjs.mjs — many `snarkjs groth16 verify` runs in one Node
// process, so that tests/cli_interop.sh pays snarkjs's start-up (module load,
// curve set-up: ~1-2 s a call) once. Each job does what the snarkjs CLI's
// verify does: JSON.parse the three files and call snarkjs's groth16.verify
// with a logger.
//
//   node interop_snarkjs.mjs JOBS     JOBS: lines "LABEL<TAB>vk<TAB>public<TAB>proof"
//
// Prints one line per job: "LABEL<TAB>OK", "LABEL<TAB>INVALID<TAB>why" (what
// snarkjs logged) or "LABEL<TAB>ERROR<TAB>message" (snarkjs threw).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const here = new URL(".", import.meta.url).pathname;
const snarkjs = createRequire(here)(here + "../.npm-local/node_modules/snarkjs/build/main.cjs");

const jobs = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.trim());
for (const line of jobs) {
  const [label, vkf, pubf, prf] = line.split("\t");
  const said = [];
  const logger = { error: (m) => said.push(m), warn: (m) => said.push(m), info() {}, debug() {} };
  try {
    const vk = JSON.parse(readFileSync(vkf, "utf8"));
    const pub = JSON.parse(readFileSync(pubf, "utf8"));
    const proof = JSON.parse(readFileSync(prf, "utf8"));
    const ok = await snarkjs.groth16.verify(vk, pub, proof, logger);
    console.log(ok ? `${label}\tOK` : `${label}\tINVALID\t${said.join("; ") || "Invalid proof"}`);
  } catch (e) {
    console.log(`${label}\tERROR\t${String(e.message || e).split("\n")[0]}`);
  }
}
process.exit(0); // the curve's worker threads would keep Node alive
