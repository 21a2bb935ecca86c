#!/usr/bin/env python3
"""daemon_test.py NAME — drives a real cuzk-daemon over gRPC.

Each NAME is one ctest: it starts the daemon on a unix socket in a fresh
temporary folder (with small generic circuits made by `cuzk synth` /
`cuzk setup` / `cuzk zkey synth` in its parameter cache), runs its checks
with the Python client (tests/cuzk_client.py over build/proto_py), stops
the daemon with SIGTERM and requires exit status 0.

Memory (t_memory): the budget's figures are the engine's own accounting,
read from GetMetrics / GetStatus; t_throttle_off and t_config_errors run
the throttle switched off and refused [memory] values.

Nothing here depends on machine speed: jobs are held queued with SIGUSR1
(the daemon pauses dispatch) and released with SIGUSR2; timeouts are only
hang guards. Environment: CUZK, CUZK_DAEMON (binaries).
"""
import concurrent.futures
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

import grpc

from cuzk_client import Client, generic_request, pb

CUZK = os.environ.get("CUZK", "build/bin/cuzk")
DAEMON = os.environ.get("CUZK_DAEMON", "build/bin/cuzk-daemon")
BENCH = os.environ.get("CUZK_BENCH", "build/bin/cuzk-bench")
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
HANG = 120  # seconds: a hang guard, never a verdict

FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print("CHECK FAILED:", what, flush=True)
    return cond


def code_of(fn, *a, **kw):
    try:
        fn(*a, **kw)
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        return e.code(), e.details() or ""


def run(*args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def wtns_bytes(values):
    """a version-2 .wtns of plain little-endian values"""
    h = struct.pack("<I", 32) + R.to_bytes(32, "little") + struct.pack("<I", len(values))
    body = b"".join(v.to_bytes(32, "little") for v in values)
    return (b"wtns" + struct.pack("<II", 2, 2) + struct.pack("<IQ", 1, len(h)) + h +
            struct.pack("<IQ", 2, len(body)) + body)


def witness_values(path):
    """the values of a witness.bin"""
    b = open(path, "rb").read()
    n = struct.unpack_from("<Q", b, 16)[0]
    return [int.from_bytes(b[32 + 32 * i:64 + 32 * i], "little") for i in range(n)]


class Circuits:
    """generic circuits in <dir>/params: g (bellperson .params + .pce + .vk,
    ~2^8 constraints), z (a snarkjs .zkey with its .wtns)"""

    def __init__(self, d):
        self.dir = os.path.join(d, "params")
        os.makedirs(self.dir)
        g = os.path.join(d, "g")
        run(CUZK, "synth", "--constraints", "240", "--out", g)
        run(CUZK, "setup", "--pce", g + "/circuit.pce", "--out-params", self.dir + "/g.params",
            "--out-vk", self.dir + "/g.vk")
        shutil.copy(g + "/circuit.pce", self.dir + "/g.pce")
        self.g_witness = open(g + "/witness.bin", "rb").read()
        self.g_public = g + "/public.json"
        self.g_vk = self.dir + "/g.vk"
        self.g_values = witness_values(g + "/witness.bin")
        z = os.path.join(d, "z")
        run(CUZK, "zkey", "synth", "--constraints", "200", "--out", z)
        shutil.copy(z + "/circuit.zkey", self.dir + "/z.zkey")
        self.z_witness = open(z + "/witness.wtns", "rb").read()

    def verify(self, proofs, d):
        """independent check: `cuzk verify` on the concatenated proofs"""
        p = os.path.join(d, "proofs.bin")
        open(p, "wb").write(proofs)
        r = subprocess.run([CUZK, "verify", "--vk", self.g_vk, "--public", self.g_public, "--proof", p],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return r.returncode == 0


class Daemon:
    def __init__(self, d, extra="", name="daemon", shutdown="20s", gpus=""):
        self.dir = d
        self.sock = os.path.join(d, name + ".sock")
        self.addr = "unix://" + self.sock
        self.cfg = os.path.join(d, name + ".toml")
        with open(self.cfg, "w") as f:
            f.write('[daemon]\nlisten = "%s"\nshutdown_timeout = "%s"\nstate_dir = "%s"\n%s\n'
                    '[srs]\nparam_cache = "%s"\n[gpus]\ngpu_threads = 2\n%s' %
                    (self.addr, shutdown, os.path.join(d, "state-" + name), extra, os.path.join(d, "params"), gpus))
        self.err_path = os.path.join(d, name + ".stderr")
        self.err = open(self.err_path, "w")
        self.p = subprocess.Popen([DAEMON, "-c", self.cfg, "--log-level", "debug"], stdout=subprocess.PIPE,
                                  stderr=self.err, text=True)
        self.ready = self.p.stdout.readline()
        if "ready" not in self.ready:
            self.p.wait(HANG)
            raise RuntimeError("daemon did not start: %r\n%s" % (self.ready, open(self.err_path).read()))
        self.c = Client(self.addr)

    def pause(self):
        self.p.send_signal(signal.SIGUSR1)
        self._wait_log("dispatch paused")

    def resume(self):
        self.p.send_signal(signal.SIGUSR2)
        self._wait_log("dispatch resumed")

    def _wait_log(self, text):
        t = time.time()
        key = "_seen_" + text
        want = getattr(self, key, 0) + 1
        while self.log().count(text) < want:
            if time.time() - t > HANG:
                raise RuntimeError("no '%s' in the log" % text)
            time.sleep(0.01)
        setattr(self, key, want)

    def log(self):
        self.err.flush()
        return open(self.err_path).read()

    def timeline(self, event):
        return [l.split(",") for l in self.log().splitlines()
                if l.startswith("TIMELINE,") and l.split(",")[2] == event]

    def stop(self, sig=signal.SIGTERM):
        self.c.close()
        self.p.send_signal(sig)
        rc = self.p.wait(HANG)
        self.err.close()
        return rc


def status(d):
    return d.c.GetStatus(pb.GetStatusRequest(), timeout=HANG)


def on_cuda(d):
    """the daemon proves on a CUDA device (its workers are named after it)"""
    return any(g.name.startswith("cuda:") for g in status(d).gpus)


def loaded_tier(d):
    """the tier a small loaded key is in: HOT (resident on the GPU) on CUDA, WARM on the CPU backend"""
    return pb.SRSStatus.HOT if on_cuda(d) else pb.SRSStatus.WARM


TIER_NAMES = {pb.SRSStatus.HOT: "hot", pb.SRSStatus.WARM: "warm", pb.SRSStatus.COLD: "cold"}


def in_progress(d):
    return sum(q.in_progress for q in status(d).queues)


def wait_running(d, n=1):
    t = time.time()
    while in_progress(d) < n:
        if time.time() - t > HANG:
            raise RuntimeError("no job started")
        time.sleep(0.005)


def submit(d, req):
    return d.c.SubmitProof(req, timeout=HANG)


def await_(d, job_id, timeout_ms=0):
    return d.c.AwaitProof(pb.AwaitProofRequest(job_id=job_id, timeout_ms=timeout_ms), timeout=HANG)


def synth_req(cid, rid="", prio=0, seed=b"7"):
    return pb.SubmitProofRequest(request_id=rid, proof_kind=pb.GROTH16_GENERIC, priority=prio,
                                 circuit_id=cid, vanilla_proof=seed)


S = pb.AwaitProofResponse


def metrics(d):
    """GetMetrics as {name or name{labels}: value}"""
    out = {}
    for line in d.c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text.splitlines():
        if line and not line.startswith("#"):
            k, v = line.rsplit(" ", 1)
            out[k] = float(v)
    return out


def settled(d):
    """metrics once the background frees have given everything back (a hang guard)"""
    t = time.time()
    while True:
        m = metrics(d)
        if m["cuzk_memory_used_bytes"] == m["cuzk_memory_key_bytes"] or time.time() - t > HANG:
            return m
        time.sleep(0.01)


# ---------------------------------------------------------------------------
def t_basics(d, cc, tmp):
    c = d.c
    r = submit(d, generic_request("g", cc.g_witness, request_id="b1"))
    check(r.job_id != "", "submit gives a job id")
    a = await_(d, r.job_id)
    check(a.status == S.COMPLETED, "generic .params proof completes: %s" % a.error_message)
    check(len(a.proof) == 192, "one proof is 192 bytes")
    check(cc.verify(a.proof, tmp), "cuzk verify accepts the daemon's proof")
    check(a.total_ms >= a.gpu_compute_ms, "timings are consistent")
    # Prove = submit + await, with two partitions (vanilla_proofs)
    p = c.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="g", vanilla_proofs=[cc.g_witness, cc.g_witness])), timeout=HANG)
    check(p.result.status == S.COMPLETED and len(p.result.proof) == 384, "two partitions give 384 bytes")
    check(cc.verify(p.result.proof, tmp), "both partitions' proofs verify")
    # zkey + wtns
    p = c.Prove(pb.ProveRequest(submit=generic_request("z", cc.z_witness)), timeout=HANG)
    check(p.result.status == S.COMPLETED and len(p.result.proof) == 192,
          "zkey proof completes: %s" % p.result.error_message)
    # synthetic
    p = c.Prove(pb.ProveRequest(submit=synth_req("synth-8-3")), timeout=HANG)
    check(p.result.status == S.COMPLETED and len(p.result.proof) == 576,
          "synthetic 3-partition proof: %s" % p.result.error_message)
    check(p.result.synthesis_ms >= 0 and p.result.srs_load_ms > 0 or True, "synthetic timings present")
    st = status(d)
    check(st.total_proofs_completed == 4, "status counts 4 completed (got %d)" % st.total_proofs_completed)
    check(any(q.proof_kind == "groth16-generic" for q in st.queues), "status lists the generic queue")
    check(len(st.gpus) >= 1, "status lists the proving workers")
    m = c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text
    for name in ["cuzk_proofs_completed_total 4", "cuzk_proofs_failed_total 0", "cuzk_uptime_seconds",
                 "cuzk_queue_depth", 'cuzk_proofs_completed{proof_kind="groth16-generic"} 4',
                 'cuzk_proofs_failed{proof_kind="groth16-generic"} 0', "cuzk_proof_duration_seconds_bucket",
                 'cuzk_proof_duration_seconds_count{proof_kind="groth16-generic"} 4',
                 'cuzk_proof_duration_seconds_bucket{proof_kind="groth16-generic",le="+Inf"} 4',
                 'cuzk_proof_duration_seconds_count{proof_kind="winning-post"} 0',
                 "cuzk_running_jobs 0", "cuzk_gpu_workers 1",
                 'cuzk_partition_synthesis_seconds_bucket{le="+Inf"} 7', "cuzk_partition_synthesis_seconds_count 7",
                 "cuzk_partition_prove_seconds_count 7"]:
        check(name in m, "metrics hold %s" % name)
    # TIMELINE lines as the reference writes them
    for ev, pat in [("SYNTH_START", r"^partition=\d+$"), ("SYNTH_END", r"^partition=\d+,synth_ms=\d+$"),
                    ("GPU_QUEUE", r"^partition=\d+$"), ("GPU_PICKUP", r"^worker=\d+,partition=\d+$"),
                    ("GPU_START", r"^worker=\d+,partition=\d+$"),
                    ("GPU_END", r"^worker=\d+,partition=\d+,gpu_ms=\d+(,\w+=[\d.]+)*$")]:
        lines = d.timeline(ev)
        check(len(lines) == 7, "%d %s lines (7 partitions)" % (len(lines), ev))
        check(all(re.match(pat, ",".join(l[4:])) and l[1].isdigit() for l in lines), "%s detail format" % ev)


def t_await_timeout(d, cc, tmp):
    d.pause()
    r = submit(d, generic_request("g", cc.g_witness))
    a = await_(d, r.job_id, timeout_ms=100)
    check(a.status == S.TIMEOUT and a.job_id == r.job_id, "await on a held job times out")
    # a long await does not block other calls
    fut = concurrent.futures.ThreadPoolExecutor(2).submit(await_, d, r.job_id, 0)
    time.sleep(0.2)
    check(not fut.done(), "the await without timeout waits")
    check(status(d).total_proofs_completed == 0, "GetStatus answers while an await waits")
    m = d.c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG)
    check("cuzk_queue_depth 1" in m.prometheus_text, "the held job is queued")
    d.resume()
    a = fut.result(HANG)
    check(a.status == S.COMPLETED, "the job went on after the timeout and completed")
    check(cc.verify(a.proof, tmp), "and its proof verifies")
    check(code_of(await_, d, "nope")[0] == grpc.StatusCode.NOT_FOUND, "await on an unknown job: NOT_FOUND")


def t_cancel(d, cc, tmp):
    d.pause()
    r = submit(d, generic_request("g", cc.g_witness))
    x = d.c.CancelProof(pb.CancelProofRequest(job_id=r.job_id), timeout=HANG)
    check(not x.was_running, "a queued job was not running")
    check(await_(d, r.job_id).status == S.CANCELLED, "a cancelled queued job reads CANCELLED")
    d.resume()
    # running: a job with many partitions, held once it has started
    r = submit(d, synth_req("synth-7-400"))
    wait_running(d)
    d.pause()
    x = d.c.CancelProof(pb.CancelProofRequest(job_id=r.job_id), timeout=HANG)
    check(x.was_running, "a started job was running")
    a = await_(d, r.job_id)
    check(a.status == S.CANCELLED, "a cancelled running job reads CANCELLED")
    d.resume()
    check(code_of(d.c.CancelProof, pb.CancelProofRequest(job_id="nope"), timeout=HANG)[0] == grpc.StatusCode.NOT_FOUND,
          "cancel of an unknown job: NOT_FOUND")
    p = d.c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG)
    check(p.result.status == S.COMPLETED, "the daemon proves after the cancellations")
    check(in_progress(d) == 0, "nothing left running")


def t_priority(d, cc, tmp):
    d.pause()
    normal = [submit(d, synth_req("synth-6-1", prio=pb.NORMAL)).job_id for _ in range(4)]
    low = submit(d, synth_req("synth-6-1", prio=pb.LOW)).job_id
    dflt = submit(d, generic_request("g", cc.g_witness)).job_id  # UNSPECIFIED generic = NORMAL
    crit = submit(d, synth_req("synth-6-1", prio=pb.CRITICAL)).job_id
    high = submit(d, synth_req("synth-6-1", prio=pb.HIGH)).job_id
    r = submit(d, synth_req("synth-6-1"))
    check(r.queue_position == 7, "queue position counts the jobs ahead (%d)" % r.queue_position)
    d.resume()
    for j in normal + [low, dflt, crit, high, r.job_id]:
        check(await_(d, j).status == S.COMPLETED, "job %s completes" % j)
    order = [l[3] for l in d.timeline("SYNTH_START")]
    want = [crit, high] + normal + [dflt, r.job_id, low]
    check(order == want, "synthesis order CRITICAL, HIGH, NORMAL (FIFO), LOW: %s vs %s" % (order, want))


def t_idempotency(d, cc, tmp):
    d.pause()
    a = submit(d, generic_request("g", cc.g_witness, request_id="porep-1-1"))
    b = submit(d, generic_request("g", cc.g_witness, request_id="porep-1-1"))
    check(a.job_id == b.job_id, "a repeated request_id while queued returns the same job")
    d.resume()
    check(await_(d, a.job_id).status == S.COMPLETED, "the queued job completes")
    # running
    r1 = submit(d, synth_req("synth-7-300", rid="long"))
    wait_running(d)
    d.pause()
    r2 = submit(d, synth_req("synth-7-300", rid="long"))
    check(r1.job_id == r2.job_id, "a repeated request_id while running returns the same job")
    check(d.c.CancelProof(pb.CancelProofRequest(job_id=r1.job_id), timeout=HANG).was_running, "cancel it")
    r3 = submit(d, synth_req("synth-7-1", rid="long"))
    check(r3.job_id != r1.job_id, "after cancellation the request_id starts a new attempt")
    d.resume()
    check(await_(d, r3.job_id).status == S.COMPLETED, "the new attempt completes")
    # completed: Prove with the same request_id answers at once with the proof
    p = d.c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness, request_id="porep-1-1")), timeout=HANG)
    check(p.result.job_id == a.job_id and p.result.status == S.COMPLETED, "Prove attaches to the completed job")
    check(cc.verify(p.result.proof, tmp), "and returns its proof")
    c = submit(d, generic_request("g", cc.g_witness, request_id="porep-1-1"))
    check(c.job_id == a.job_id, "a repeated request_id after completion returns the same job")
    st = status(d)
    check(st.total_proofs_completed == 2, "no duplicate proof was made (%d completed)" % st.total_proofs_completed)


def t_many(d, cc, tmp):
    n = 200

    def one(i):
        if i % 2:
            req = generic_request("g", cc.g_witness, request_id="many-%d" % i)
        else:
            req = synth_req("synth-%d-1" % (8 + i % 3), rid="many-%d" % i)
        return i, d.c.Prove(pb.ProveRequest(submit=req), timeout=HANG).result

    with concurrent.futures.ThreadPoolExecutor(64) as ex:
        res = list(ex.map(one, range(n)))
    check(all(r.status == S.COMPLETED for _, r in res), "all %d proofs completed" % n)
    check(len({r.job_id for _, r in res}) == n, "each got its own job")
    generic = b"".join(r.proof for i, r in res if i % 2)
    check(len(generic) == 192 * n // 2, "100 generic proofs")
    check(cc.verify(generic, tmp), "cuzk verify accepts all 100 generic proofs")
    check(status(d).total_proofs_completed == n, "status counts %d" % n)
    m = metrics(d)
    check(0 < m["cuzk_memory_peak_bytes"] <= m["cuzk_memory_budget_bytes"], "the engine's peak stayed under the budget")


def t_thousand(d, cc, tmp):
    d.pause()
    ids = [submit(d, synth_req("synth-5-1", rid="k-%d" % i)).job_id for i in range(1000)]
    check(len(set(ids)) == 1000, "1000 queued jobs accepted")
    m = d.c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text
    check("cuzk_queue_depth 1000" in m, "all 1000 are queued")
    d.resume()
    res = [await_(d, j) for j in ids]
    check(all(r.status == S.COMPLETED and len(r.proof) == 192 for r in res), "all 1000 drained and completed")
    check(status(d).total_proofs_completed == 1000, "status counts 1000")


def t_bad_requests(d, cc, tmp):
    c = d.c
    IA = grpc.StatusCode.INVALID_ARGUMENT

    def sub(**kw):
        return code_of(c.SubmitProof, pb.SubmitProofRequest(**kw), timeout=HANG)

    code, msg = code_of(c.raw["SubmitProof"], b"\xff\xff\xff\xff", timeout=HANG)
    check(code == IA, "a malformed message: INVALID_ARGUMENT (%s)" % code)
    code, msg = sub(proof_kind=7, circuit_id="g", vanilla_proof=cc.g_witness)
    check(code == IA and "proof_kind" in msg, "unknown kind names proof_kind: %s %s" % (code, msg))
    code, msg = sub(circuit_id="g", vanilla_proof=cc.g_witness)
    check(code == IA and "proof_kind" in msg, "unspecified kind names proof_kind")
    code, msg = sub(proof_kind=pb.POREP_SEAL_COMMIT, vanilla_proof=b"{}")
    check(code == grpc.StatusCode.UNIMPLEMENTED and "POREP_SEAL_COMMIT" in msg, "PoRep: UNIMPLEMENTED naming it")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, vanilla_proof=cc.g_witness)
    check(code == IA and "circuit_id" in msg, "empty circuit_id is named")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="nosuch", vanilla_proof=cc.g_witness)
    check(code == IA and "circuit_id" in msg, "unknown circuit is named: %s" % msg)
    for bad in ["../params/g", "a/b", ".g", "..", "g/../g", "/etc/passwd", "x\\y"]:
        code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id=bad, vanilla_proof=cc.g_witness)
        check(code == IA and "circuit_id" in msg, "path-like circuit_id %r refused: %s" % (bad, msg))
        code, msg = code_of(c.PreloadSRS, pb.PreloadSrsRequest(circuit_id=bad), timeout=HANG)
        check(code == IA, "PreloadSRS refuses %r" % bad)
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="g")
    check(code == IA and "vanilla_proof" in msg, "empty payload is named")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="g", vanilla_proof=b"garbage" * 10)
    check(code == IA and "vanilla_proof" in msg, "malformed payload is named")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="g", vanilla_proof=cc.g_witness[:-5])
    check(code == IA and "vanilla_proof" in msg, "truncated witness is named")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="g", vanilla_proof=cc.g_witness, priority=9)
    check(code == IA and "priority" in msg, "unknown priority is named")
    code, msg = sub(proof_kind=pb.GROTH16_GENERIC, circuit_id="synth-99-1", vanilla_proof=b"1")
    check(code == IA and "circuit_id" in msg, "bad synthetic id is named")
    code, msg = code_of(c.Prove, pb.ProveRequest(), timeout=HANG)
    check(code == IA and "submit" in msg, "Prove without submit names it")
    code, msg = code_of(c.AwaitProof, pb.AwaitProofRequest(), timeout=HANG)
    check(code == IA and "job_id" in msg, "Await without job_id names it")
    # oversized: this daemon allows 1 MiB
    big = generic_request("g", b"wtns" + b"\0" * (2 << 20))
    code, msg = code_of(c.SubmitProof, big, timeout=HANG)
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED, "a 2 MiB request to a 1 MiB daemon: %s" % code)
    p = c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG)
    check(p.result.status == S.COMPLETED, "the daemon proves after the bad requests")


def t_disconnect(d, cc, tmp):
    d.pause()
    # a client whose deadline passes mid-call, and one that cancels
    code, _ = code_of(d.c.Prove, pb.ProveRequest(submit=generic_request("g", cc.g_witness, request_id="dc")),
                      timeout=0.3)
    check(code == grpc.StatusCode.DEADLINE_EXCEEDED, "the client's deadline passed (%s)" % code)
    other = Client(d.addr)
    r = submit(d, generic_request("g", cc.g_witness, request_id="dc2"))
    fut = other.AwaitProof.future(pb.AwaitProofRequest(job_id=r.job_id))
    time.sleep(0.1)
    fut.cancel()
    other.close()  # and the connection goes away
    for _ in range(20):  # many abandoned waits
        cl = Client(d.addr)
        cl.AwaitProof.future(pb.AwaitProofRequest(job_id=r.job_id))
        cl.close()
    check(status(d).total_proofs_completed == 0, "the daemon answers after the disconnects")
    d.resume()
    p = d.c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness, request_id="dc")), timeout=HANG)
    check(p.result.status == S.COMPLETED, "the retry attaches to the job the gone client started")
    check(await_(d, r.job_id).status == S.COMPLETED, "the abandoned await's job completed")
    check(status(d).total_proofs_completed == 2, "exactly two proofs were made")


def t_synth_failure(d, cc, tmp):
    v = list(cc.g_values)
    v[1] = (v[1] + 1) % R  # a public input off by one: the witness parses but breaks its binding row
    a = d.c.Prove(pb.ProveRequest(submit=generic_request("g", wtns_bytes(v), request_id="bad")), timeout=HANG).result
    check(a.status == S.FAILED, "an unsatisfying witness fails the job (%s)" % a.status)
    check("synthesis failed" in a.error_message and "constraint" in a.error_message,
          "the error says why: %s" % a.error_message)
    check(not a.proof, "no proof for a failed job")
    ok = d.c.Prove(pb.ProveRequest(submit=generic_request("g", wtns_bytes(cc.g_values), request_id="bad")),
                   timeout=HANG).result
    check(ok.status == S.COMPLETED and ok.job_id != a.job_id, "a retry after failure is a new attempt, and completes")
    check(cc.verify(ok.proof, tmp), "its proof verifies")
    short = wtns_bytes(cc.g_values[:-3])
    a = d.c.Prove(pb.ProveRequest(submit=generic_request("g", short)), timeout=HANG).result
    check(a.status == S.FAILED and "variables" in a.error_message, "a witness of another size fails: %s" % a.error_message)
    # the first failed partition fails the job
    a = d.c.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="g",
        vanilla_proofs=[cc.g_witness, wtns_bytes(v), cc.g_witness])), timeout=HANG).result
    check(a.status == S.FAILED and "partition 1" in a.error_message, "partition 1 fails the job: %s" % a.error_message)
    st = status(d)
    check(st.total_proofs_failed == 3 and st.total_proofs_completed == 1, "status: 3 failed, 1 completed")
    m = d.c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text
    check("cuzk_proofs_failed_total 3" in m, "metrics count the failures")


def t_srs(d, cc, tmp):
    c = d.c
    r = c.PreloadSRS(pb.PreloadSrsRequest(circuit_id="g"), timeout=HANG)
    check(not r.already_loaded, "first preload loads")
    r = c.PreloadSRS(pb.PreloadSrsRequest(circuit_id="g"), timeout=HANG)
    check(r.already_loaded and r.load_time_ms == 0, "second preload finds it loaded")
    r = c.PreloadSRS(pb.PreloadSrsRequest(circuit_id="synth-8-1"), timeout=HANG)
    check(not r.already_loaded, "synthetic keys preload")
    srs = {s.circuit_id: s for s in status(d).loaded_srs}
    check(srs["g"].tier == loaded_tier(d) and srs["g"].size_bytes > 0,
          "g is %s with a size (%s)" % (TIER_NAMES[loaded_tier(d)].upper(), srs["g"]))
    if not on_cuda(d):
        check(not any(s.tier == pb.SRSStatus.HOT for s in srs.values()), "nothing is HOT on the CPU backend")
    m = metrics(d)
    check(m['cuzk_srs_tier_bytes{tier="%s"}' % TIER_NAMES[loaded_tier(d)]] >= srs["g"].size_bytes and
          m['cuzk_srs_bytes{circuit_id="g",tier="%s"}' % TIER_NAMES[loaded_tier(d)]] == srs["g"].size_bytes and
          'cuzk_srs_tier_bytes{tier="hot"}' in m, "the tier metrics agree")
    check("synth-8" in srs, "the synthetic keys are listed")
    e = c.EvictSRS(pb.EvictSrsRequest(circuit_id="g"), timeout=HANG)
    check(e.was_loaded and e.freed_bytes > 0, "evict frees g")
    srs = {s.circuit_id: s for s in status(d).loaded_srs}
    check(srs["g"].tier == pb.SRSStatus.COLD, "g is COLD after evict")
    check('cuzk_srs_bytes{circuit_id="g",tier="cold"}' in metrics(d), "and so in the metrics")
    e = c.EvictSRS(pb.EvictSrsRequest(circuit_id="g"), timeout=HANG)
    check(not e.was_loaded, "a second evict finds nothing")
    code, msg = code_of(c.PreloadSRS, pb.PreloadSrsRequest(circuit_id="nosuch"), timeout=HANG)
    check(code == grpc.StatusCode.INVALID_ARGUMENT and "circuit_id" in msg, "preload of an unknown circuit")
    p = c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG)
    check(p.result.status == S.COMPLETED and p.result.srs_load_ms > 0 or p.result.status == S.COMPLETED,
          "a proof after evict reloads the keys")
    check(cc.verify(p.result.proof, tmp), "and verifies")
    # evicting keys in use: freed when the job lets go, the job unharmed
    d.pause()
    j = submit(d, generic_request("g", cc.g_witness)).job_id
    e = c.EvictSRS(pb.EvictSrsRequest(circuit_id="g"), timeout=HANG)
    check(e.was_loaded and e.freed_bytes == 0, "evict of keys in use defers the free")
    d.resume()
    check(await_(d, j).status == S.COMPLETED, "the job using them completes")
    srs = {s.circuit_id: s for s in status(d).loaded_srs}
    check(srs["g"].tier == pb.SRSStatus.COLD and srs["g"].ref_count == 0, "then they are freed")


def t_sigterm(d, cc, tmp):
    # a second daemon on the same socket refuses to start
    p = subprocess.run([DAEMON, "-c", d.cfg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=HANG)
    check(p.returncode != 0 and "in use" in p.stderr, "address in use: exit %d, %s" % (p.returncode, p.stderr))
    check(status(d).uptime_seconds >= 0, "the first daemon still serves")
    # SIGTERM with work under way: it finishes (shutdown_timeout is 20 s) and exits 0; the
    # jobs are held until the waiting call has reached the daemon (a call that arrives after
    # SIGTERM is refused: that is not what this checks)
    d.pause()
    jobs = [submit(d, generic_request("g", cc.g_witness)).job_id for _ in range(3)]
    wc = Client(d.addr)
    waiter = wc.AwaitProof.future(pb.AwaitProofRequest(job_id=jobs[-1]), timeout=HANG)
    t0 = time.time()
    while metrics(d).get("cuzk_waiting_calls", 0) < 1 and time.time() - t0 < HANG:
        time.sleep(0.01)
    check(metrics(d).get("cuzk_waiting_calls") == 1, "the waiting call is counted")
    d.resume()
    time.sleep(0.05)
    rc = d.stop()
    check(rc == 0, "SIGTERM: exit 0 (got %s)" % rc)
    # the jobs end within shutdown_timeout, so the answer goes out before the calls are cancelled
    check(waiter.result().status == S.COMPLETED, "the waiting client got its proof")
    wc.close()
    check(not os.path.exists(d.sock), "the socket is removed")
    check("stopped" in open(d.err_path).read(), "the log says stopped")
    # SIGINT on a fresh daemon, with a held job: cancelled at the timeout, exit 0
    d2 = Daemon(tmp, name="d2", shutdown="200ms")
    d2.pause()
    submit(d2, generic_request("g", cc.g_witness))
    check(d2.stop(signal.SIGINT) == 0, "SIGINT with a held job: exit 0 after the timeout")
    check("cancelling 1 job" in open(d2.err_path).read(), "the held job was cancelled at the timeout")
    d.p = None


def t_bench_batch(d, cc, tmp):
    wpath = os.path.join(tmp, "g.bin")
    open(wpath, "wb").write(cc.g_witness)
    p = subprocess.run([BENCH, "batch", "-a", d.addr, "-c", "6", "-j", "3", "--preload", "g",
                        "synth:synth-8-2", "generic:g:" + wpath], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=HANG)
    print(p.stdout)
    check(p.returncode == 0, "cuzk-bench batch exits 0")
    lines = [l for l in p.stdout.splitlines() if l.startswith("[")]
    check(len(lines) == 6 and all(re.match(r"^\[\d/6\] COMPLETED \u2014 [\d.]+s \(prove=\d+ ms, queue=\d+ ms\)", l)
                                  for l in lines), "six per-proof lines in the reference's form")
    check("completed 6, failed 0" in p.stdout and "throughput:" in p.stdout, "the summary")
    p = subprocess.run([BENCH, "batch", "-a", d.addr, "-t", "generic", "--circuit-id", "nosuch", "--witness", wpath],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=HANG)
    check(p.returncode == 1 and "FAILED" in p.stdout and "circuit_id" in p.stdout, "a refused proof is a failure")
    check(status(d).total_proofs_completed == 6, "six proofs made")


def t_tcp(d, cc, tmp):
    # loopback TCP, the port chosen by the system
    p = subprocess.Popen([DAEMON, "-c", d.cfg, "-l", "127.0.0.1:0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    ready = p.stdout.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", ready)
    check(m is not None, "ready line names the chosen port: %r" % ready)
    port = m.group(1) if m else "1"
    c = Client("127.0.0.1:" + port)
    r = c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG).result
    check(r.status == S.COMPLETED and cc.verify(r.proof, tmp), "a proof over TCP")
    c.close()
    q = subprocess.run([DAEMON, "-c", d.cfg, "-l", "127.0.0.1:" + port], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=HANG)
    check(q.returncode == 1 and "in use" in q.stderr, "a second daemon on the port: exit 1, %s" % q.stderr.strip())
    p.send_signal(signal.SIGTERM)
    check(p.wait(HANG) == 0, "the TCP daemon stops with exit 0")
    check("unauthenticated" not in p.stderr.read(), "no warning on loopback")
    # any address: a warning that the API is unauthenticated
    p = subprocess.Popen([DAEMON, "-c", d.cfg, "-l", "0.0.0.0:0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    check("ready" in p.stdout.readline(), "listens on 0.0.0.0")
    p.send_signal(signal.SIGTERM)
    check(p.wait(HANG) == 0, "and stops with exit 0")
    check("unauthenticated" in p.stderr.read(), "with a warning that the API is unauthenticated")


def t_restart(d, cc, tmp):
    a = d.c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness, request_id="r-a")), timeout=HANG).result
    check(a.status == S.COMPLETED, "a proof before the crash")
    d.pause()
    held = [submit(d, generic_request("g", cc.g_witness, request_id="r-%d" % i)).job_id for i in range(3)]
    held.append(submit(d, synth_req("synth-7-2", rid="r-s")).job_id)
    x = submit(d, generic_request("g", cc.g_witness, request_id="r-x")).job_id
    d.c.CancelProof(pb.CancelProofRequest(job_id=x), timeout=HANG)
    d.c.close()
    d.p.kill()  # SIGKILL: nothing gets to clean up
    d.p.wait(HANG)
    d.err.close()
    d2 = Daemon(tmp, shutdown="1s")  # the same socket path (a stale file now), config and state_dir
    check(any("ready" in l for l in [d2.ready]), "the daemon restarts on the stale socket")
    for i, j in enumerate(held):
        r = await_(d2, j)
        check(r.status == S.COMPLETED, "acknowledged job %d ran after the restart: %s" % (i, r.error_message))
        if i < 3:
            check(cc.verify(r.proof, tmp), "and its proof verifies")
    r = await_(d2, a.job_id)
    check(r.status == S.COMPLETED and r.proof == a.proof, "the proof made before the crash is still there")
    check(submit(d2, generic_request("g", cc.g_witness, request_id="r-a")).job_id == a.job_id,
          "a retry of the completed request attaches to it")
    check(submit(d2, generic_request("g", cc.g_witness, request_id="r-1")).job_id == held[1],
          "a retry of a re-run request attaches to it")
    check(await_(d2, x).status == S.CANCELLED, "the cancelled job stays cancelled")
    check(status(d2).total_proofs_completed == 4, "only the interrupted jobs were proved again")
    # SIGTERM with a held job: it is journaled as accepted and runs after the next start
    d2.pause()
    h = submit(d2, generic_request("g", cc.g_witness, request_id="r-h")).job_id
    check(d2.stop() == 0, "SIGTERM: exit 0")
    d3 = Daemon(tmp)
    check(await_(d3, h).status == S.COMPLETED, "the job held at SIGTERM ran after the restart")
    d.__dict__.update(d3.__dict__)  # main() stops this one


# ---- observability: the HTTP status page, JSON logs, the bench subcommands, TLS ----
SKIP = 77  # the exit status ctest reads as "skipped"
REF_METRICS = ["cuzk_proofs_completed_total", "cuzk_proofs_failed_total", "cuzk_uptime_seconds", "cuzk_queue_depth",
               "cuzk_proofs_completed", "cuzk_proofs_failed", "cuzk_proof_duration_seconds", "cuzk_running_jobs",
               "cuzk_gpu_workers"]


class Skip(Exception):
    pass


def status_url(d):
    """the status page's base URL from the ready line; Skip where the daemon was built without it"""
    m = re.search(r"status (http://[\w.:\[\]]+)", d.ready)
    if m:
        return m.group(1)
    if "HTTP status is not built" in d.log():
        raise Skip("this cuzk-daemon was built without libmicrohttpd: HTTP status not built")
    raise RuntimeError("no status URL in the ready line %r" % d.ready)


def http(url, method="GET"):
    """(status code, content type, body) of one request"""
    import urllib.error
    import urllib.request
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=HANG) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def metric_names(text):
    """the set of metric family names in a Prometheus text (from its samples)"""
    names = set()
    for line in text.splitlines():
        if line and not line.startswith("#"):
            n = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)", line).group(1)
            names.add(re.sub(r"_(bucket|sum|count)$", "", n))
    return names


def t_http_status(d, cc, tmp):
    import json
    base = status_url(d)
    code, ctype, body = http(base + "/status")
    check(code == 200 and ctype.startswith("application/json"), "GET /status: 200 JSON (%s %s)" % (code, ctype))
    st = json.loads(body)
    for k in ["uptime_seconds", "backend", "counters", "queues", "gpu_workers", "memory", "loaded_keys", "pipelines"]:
        check(k in st, "/status has %s" % k)
    for k in ["rss_bytes", "rss_peak_bytes", "used_bytes", "budget_bytes", "vram_budget_bytes", "vram_used_bytes"]:
        check(k in st["memory"], "/status memory has %s" % k)
    check(st["memory"]["rss_bytes"] > 0 and st["memory"]["rss_peak_bytes"] >= st["memory"]["rss_bytes"],
          "the daemon's RSS is reported: %s" % st["memory"])
    check(len(st["gpu_workers"]) >= 1 and st["gpu_workers"][0]["name"], "the proving workers are listed")
    # a finished proof of 3 partitions
    p = d.c.Prove(pb.ProveRequest(submit=synth_req("synth-8-3", rid="h-1")), timeout=HANG).result
    check(p.status == S.COMPLETED, "a synthetic proof completes")
    st = json.loads(http(base + "/status")[2])
    jobs = {j["job_id"]: j for j in st["pipelines"]}
    j = jobs.get(p.job_id)
    check(j is not None, "the finished job is in pipelines")
    if j:
        check(j["state"] == "completed" and j["request_id"] == "h-1" and j["circuit_id"] == "synth-8-3",
              "its state, request_id and circuit_id: %s" % {k: j[k] for k in ("state", "request_id", "circuit_id")})
        check(j["partitions_total"] == 3 and j["partitions_done"] == 3 and len(j["partitions"]) == 3,
              "three partitions, all done")
        check(all(x["state"] == "done" and x["worker"] >= 0 for x in j["partitions"]),
              "each partition done, with its worker: %s" % j["partitions"])
        check([x["index"] for x in j["partitions"]] == [0, 1, 2], "partitions in order")
        check(sum(x["prove_ms"] for x in j["partitions"]) <= j["prove_ms"] + 3,
              "partition prove times add up to the job's")
    check(st["counters"]["completed"] == 1, "the counter of completed proofs")
    tier = TIER_NAMES[loaded_tier(d)]
    check(any(k["circuit_id"] == "synth-8" and k["tier"] == tier and k["size_bytes"] > 0
              for k in st["loaded_keys"]), "the loaded key, %s, with its size: %s" % (tier, st["loaded_keys"]))
    # a held job: queued, its partitions queued
    d.pause()
    h = submit(d, synth_req("synth-7-2", rid="h-2")).job_id
    st = json.loads(http(base + "/status")[2])
    j = {j["job_id"]: j for j in st["pipelines"]}.get(h)
    check(j is not None and j["state"] == "queued" and [x["state"] for x in j["partitions"]] == ["queued"] * 2,
          "a held job reads queued, partitions queued: %s" % j)
    check(st["counters"]["queued_jobs"] == 1 and st["pipelines"][0]["job_id"] == h, "newest first, one queued")
    d.resume()
    check(await_(d, h).status == S.COMPLETED, "the held job completes")
    # a job whose partition 1 fails: that partition reads failed, partition 2 (never started) dropped;
    # partition 0 may still be on the worker (proving) when the job has ended
    v = list(cc.g_values)
    v[1] = (v[1] + 1) % R
    f = d.c.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="g",
        vanilla_proofs=[cc.g_witness, wtns_bytes(v), cc.g_witness])), timeout=HANG).result
    check(f.status == S.FAILED, "the job with a bad partition fails")
    st = json.loads(http(base + "/status")[2])
    j = {j["job_id"]: j for j in st["pipelines"]}.get(f.job_id)
    check(j is not None and j["state"] == "failed" and "partition 1" in j["error"], "it reads failed, with the error")
    if j:
        ps = [x["state"] for x in j["partitions"]]
        check(ps[1] == "failed" and ps[2] == "dropped" and ps[0] in ("done", "dropped", "proving"),
              "partition states failed / dropped: %s" % ps)
    # /metrics: the same text GetMetrics gives (names; values move), with the reference's names
    code, ctype, body = http(base + "/metrics")
    check(code == 200 and ctype.startswith("text/plain"), "GET /metrics: 200 text/plain (%s)" % ctype)
    text = body.decode()
    grpc_text = d.c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text
    check(metric_names(text) == metric_names(grpc_text), "HTTP /metrics and GetMetrics have the same metrics: %s" %
          (metric_names(text) ^ metric_names(grpc_text)))
    for n in REF_METRICS:
        check(n in metric_names(text), "/metrics has the reference's %s" % n)
    for n in ["cuzk_partition_synthesis_seconds", "cuzk_partition_prove_seconds", "cuzk_gpu_busy_seconds_total",
              "process_resident_memory_bytes", "cuzk_memory_used_bytes", "cuzk_memory_budget_bytes",
              "cuzk_srs_tier_bytes", "cuzk_waiting_calls"]:
        check(n in metric_names(text), "/metrics has %s" % n)
    check("cuzk_proofs_completed_total 2" in text and "cuzk_proofs_failed_total 1" in text, "the counters read 2, 1")
    check(re.search(r"^# TYPE cuzk_proof_duration_seconds histogram$", text, re.M), "a histogram TYPE line")
    # anything else
    for path in ["/", "/nope", "/status/", "/metrics.txt", "/../status"]:
        check(http(base + path)[0] == 404, "GET %s: 404" % path)
    check(http(base + "/status", "POST")[0] == 405, "POST /status: 405")
    check(http(base + "/status", "HEAD")[0] == 200, "HEAD /status: 200")
    # a second daemon on the same status port cannot start
    port = base.rsplit(":", 1)[1]
    cfg2 = os.path.join(tmp, "dup.toml")
    open(cfg2, "w").write(open(d.cfg).read().replace('127.0.0.1:0', '127.0.0.1:' + port)
                          .replace(d.sock, os.path.join(tmp, "dup.sock")).replace("state-daemon", "state-dup"))
    q = subprocess.run([DAEMON, "-c", cfg2], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=HANG)
    check(q.returncode == 1 and "HTTP status" in q.stderr, "status port in use: exit 1, %s" % q.stderr.strip())


def t_json_log(d, cc, tmp):
    import json
    p = d.c.Prove(pb.ProveRequest(submit=synth_req("synth-7-2")), timeout=HANG).result
    check(p.status == S.COMPLETED, "a proof with JSON logs")
    check(code_of(d.c.SubmitProof, pb.SubmitProofRequest(proof_kind=7), timeout=HANG)[0] ==
          grpc.StatusCode.INVALID_ARGUMENT, "a bad request (a debug line)")
    d.pause()
    d.resume()

    def whole_lines():  # a line the daemon is still writing is left for later
        text = d.log()
        return text[:text.rfind("\n") + 1].splitlines()
    def settled(lines):  # the job's last TIMELINE lines and the refused call's
        # debug line are written after the replies, so they may come later
        return (sum(l.startswith("TIMELINE,") for l in lines) >= 2 * 6 and
                any('"grpc_status":3' in l for l in lines))
    t = time.time()
    lines = whole_lines()
    while not settled(lines) and time.time() - t < HANG:
        time.sleep(0.05)
        lines = whole_lines()
    tl = [l for l in lines if l.startswith("TIMELINE,")]
    other = [l for l in lines if not l.startswith("TIMELINE,")]
    check(len(tl) == 2 * 6, "TIMELINE lines stay text: %d" % len(tl))
    check(all(re.match(r"^TIMELINE,\d+,[A-Z_]+,[\w-]+,[\w=.,]+$", l) for l in tl), "in their own format")
    objs = []
    for l in other:
        try:
            objs.append(json.loads(l))
        except ValueError:
            check(False, "a log line that is not JSON: %r" % l)
    check(len(objs) >= 4, "log lines were written (%d)" % len(objs))
    check(all(isinstance(o, dict) and {"ts", "level", "msg"} <= set(o) for o in objs), "each has ts, level, msg")
    check(all(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", o["ts"]) for o in objs), "ts is ISO 8601 UTC")
    check(all(o["level"] in ("trace", "debug", "info", "warn", "error") for o in objs), "known levels")
    ready = [o for o in objs if o["msg"].startswith("ready")]
    check(len(ready) == 1 and ready[0].get("pid") == d.p.pid and ready[0].get("backend"),
          "the ready line carries fields (pid as a number, backend): %s" % ready)
    check(any(o["level"] == "warn" and "unknown_key_here" in o["msg"] for o in objs),
          "the config warning read before the format was known is JSON too")
    check(any(o["level"] == "debug" and o.get("grpc_status") == 3 for o in objs), "the refused call, with fields")
    check(any(o["msg"] == "dispatch paused (SIGUSR1)" for o in objs), "signal lines")


def t_bench_cmds(d, cc, tmp):
    import json
    wpath = os.path.join(tmp, "g.bin")
    open(wpath, "wb").write(cc.g_witness)

    def bench(*a):
        p = subprocess.run([BENCH] + list(a), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=HANG)
        print(p.stdout, p.stderr)
        return p

    p = bench("preload", "-a", d.addr, "g", "synth-8-1")
    check(p.returncode == 0 and "preload g: loaded" in p.stdout and "preload synth-8-1: loaded" in p.stdout,
          "preload loads two circuits")
    p = bench("preload", "-a", d.addr, "g")
    check(p.returncode == 0 and "already loaded" in p.stdout, "a second preload finds it loaded")
    p = bench("preload", "-a", d.addr, "nosuch")
    check(p.returncode == 1 and "circuit_id" in p.stderr and "nosuch: PreloadSRS: gRPC status" in p.stderr,
          "preload of an unknown circuit: exit 1 naming it, the call and circuit_id: %s" % p.stderr.strip())
    p = bench("single", "-a", d.addr, "generic:g:" + wpath)
    check(p.returncode == 0 and re.search(r"^\[1/1\] COMPLETED \u2014 [\d.]+s \(prove=\d+ ms, queue=\d+ ms\)",
                                          p.stdout, re.M), "single: one proof in the reference's form")
    check(re.search(r"^job \S+: queue \d+ ms, srs load \d+ ms, synthesis \d+ ms, prove \d+ ms, total \d+ ms, "
                    r"proof 192 bytes$", p.stdout, re.M), "single: every timing and the proof size")
    check("throughput:" in p.stdout and "completed 1, failed 0" in p.stdout, "single: the summary")
    p = bench("single", "-a", d.addr, "synth:synth-8-1", "synth:synth-8-2")
    check(p.returncode == 2, "single with two jobs: usage error")
    svg, js = os.path.join(tmp, "sweep.svg"), os.path.join(tmp, "sweep.json")
    p = bench("sweep", "-a", d.addr, "-j", "1,2,4", "-c", "4", "--svg", svg, "--json", js, "synth:synth-8-1",
              "generic:g:" + wpath)
    check(p.returncode == 0, "sweep exits 0")
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+([\d.]+)$", p.stdout, re.M)
    check([r[0] for r in rows] == ["1", "2", "4"] and all(r[1] == "4" for r in rows),
          "one table row per level, 4 proofs each: %s" % rows)
    check(all(float(r[3]) > 0 and int(r[5]) <= int(r[6]) and float(r[7]) > 0 for r in rows),
          "throughput, p50 <= p99 and the daemon's peak RSS per level")
    import xml.dom.minidom
    doc = xml.dom.minidom.parse(svg)
    check(len(doc.getElementsByTagName("circle")) == 3, "the SVG has a point per level")
    j = json.load(open(js))
    check([x["concurrency"] for x in j["levels"]] == [1, 2, 4] and
          all(x["completed"] == 4 and x["peak_rss_bytes"] > 0 and x["latency_p50_ms"] <= x["latency_p99_ms"]
              for x in j["levels"]), "the JSON has the same levels")
    p = bench("sweep", "-a", d.addr, "-j", "1,x", "synth:synth-8-1")
    check(p.returncode == 2 and "-j" in p.stderr, "a bad level list: usage error")
    p = bench("status", "-a", d.addr)
    check(p.returncode == 0 and re.search(r"^uptime: \d+ s, completed 13, failed 0$", p.stdout, re.M),
          "status: the counters (1 single + 3 x 4 sweep proofs): %s" % p.stdout.splitlines()[:1])
    key_line = r"^key g: %s, \d+ bytes, 0 in use$" % TIER_NAMES[loaded_tier(d)].upper()
    check(re.search(key_line, p.stdout, re.M) and "worker 0:" in p.stdout,
          "status: keys and workers")
    p = bench("metrics", "-a", d.addr)
    check(p.returncode == 0 and all(n in metric_names(p.stdout) for n in REF_METRICS) and
          "cuzk_proofs_completed_total 13" in p.stdout, "metrics: the Prometheus text")
    p = bench("status", "-a", "unix://" + os.path.join(tmp, "nothing.sock"))
    check(p.returncode == 1 and "GetStatus" in p.stderr, "status of no daemon: exit 1")
    check(bench("metrics").returncode == 2, "metrics without -a: usage error")


def make_cert(tmp):
    """a throwaway self-signed certificate for 127.0.0.1 / localhost; None without openssl"""
    if not shutil.which("openssl"):
        return None
    cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return cert, key


def t_tls(d, cc, tmp):
    ck = make_cert(tmp)
    if ck is None:
        raise Skip("openssl is not installed: no certificate for the TLS test")
    cert, key = ck
    cfg = os.path.join(tmp, "tls.toml")
    base = open(d.cfg).read().replace(d.sock, os.path.join(tmp, "tls.sock"))
    open(cfg, "w").write(base.replace("[daemon]\n", '[daemon]\ntls_cert = "%s"\ntls_key = "%s"\n' % (cert, key), 1))
    p = subprocess.Popen([DAEMON, "-c", cfg, "-l", "0.0.0.0:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    ready = p.stdout.readline()
    m = re.search(r"listening on 0\.0\.0\.0:(\d+) \(.*TLS", ready)
    check(m is not None, "the ready line names the port and TLS: %r" % ready)
    port = m.group(1) if m else "1"
    pem = open(cert, "rb").read()
    c = Client("127.0.0.1:" + port, root_cert=pem)
    r = c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG).result
    check(r.status == S.COMPLETED and cc.verify(r.proof, tmp), "a proof over TLS, verified")
    check(c.GetStatus(pb.GetStatusRequest(), timeout=HANG).total_proofs_completed == 1, "GetStatus over TLS")
    c.close()
    plain = Client("127.0.0.1:" + port)
    code, _ = code_of(plain.GetStatus, pb.GetStatusRequest(), timeout=HANG)
    check(code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED),
          "a plain-text client gets no answer (%s)" % code)
    plain.close()
    q = subprocess.run([BENCH, "status", "-a", "127.0.0.1:" + port, "--tls-ca", cert], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=HANG)
    check(q.returncode == 0 and "completed 1" in q.stdout, "cuzk-bench over TLS: %s %s" % (q.stdout, q.stderr))
    p.send_signal(signal.SIGTERM)
    check(p.wait(HANG) == 0, "the TLS daemon stops with exit 0")
    check("unauthenticated" not in p.stderr.read(), "no unauthenticated warning with TLS on 0.0.0.0")
    # half a TLS configuration, and a key that is not PEM
    open(cfg, "w").write(base.replace("[daemon]\n", '[daemon]\ntls_cert = "%s"\n' % cert, 1))
    q = subprocess.run([DAEMON, "-c", cfg, "-l", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=HANG)
    check(q.returncode == 2 and "tls_key" in q.stderr, "tls_cert without tls_key: exit 2 naming it: %s" % q.stderr)
    junk = os.path.join(tmp, "junk.pem")
    open(junk, "w").write("not a key\n")
    open(cfg, "w").write(base.replace("[daemon]\n", '[daemon]\ntls_cert = "%s"\ntls_key = "%s"\n' % (cert, junk), 1))
    q = subprocess.run([DAEMON, "-c", cfg, "-l", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=HANG)
    check(q.returncode == 2 and "tls_key" in q.stderr and "PEM" in q.stderr, "a key that is not PEM: %s" % q.stderr)
    bad = os.path.join(tmp, "bad.pem")
    open(bad, "w").write("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    open(cfg, "w").write(base.replace("[daemon]\n", '[daemon]\ntls_cert = "%s"\ntls_key = "%s"\n' % (cert, bad), 1))
    q = subprocess.run([DAEMON, "-c", cfg, "-l", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=HANG)
    check(q.returncode == 1 and "tls_cert / tls_key" in q.stderr, "an unusable key: exit 1 saying so: %s" % q.stderr)



def t_memory(d, cc, tmp):
    # the default daemon: "auto" = MemTotal less the 5GiB margin, reported both ways
    st = status(d)
    m = metrics(d)
    check(st.pinned_memory_limit_bytes > 0 and m["cuzk_memory_budget_bytes"] == st.pinned_memory_limit_bytes,
          "auto budget reported by GetStatus and the metrics")
    d.c.PreloadSRS(pb.PreloadSrsRequest(circuit_id="g"), timeout=HANG)
    m = metrics(d)
    key = m['cuzk_srs_bytes{circuit_id="g",tier="%s"}' % TIER_NAMES[loaded_tier(d)]]
    part = m['cuzk_partition_memory_bytes{circuit_id="g"}']
    check(key > 0 and part > 0 and m["cuzk_memory_key_bytes"] == key, "key and partition sizes exposed")
    # a budget that admits one partition at a time: every proof still completes and verifies
    budget = int(key + part + part // 2)
    b = Daemon(tmp, extra='[memory]\ntotal_budget = "%d"\neviction_min_idle = "0s"\n' % budget, name="budget")
    try:
        b.pause()
        ids = [submit(b, pb.SubmitProofRequest(proof_kind=pb.GROTH16_GENERIC, circuit_id="g",
                                               vanilla_proofs=[cc.g_witness] * 3)).job_id for _ in range(6)]
        b.resume()
        res = [await_(b, j) for j in ids]
        check(all(r.status == S.COMPLETED and len(r.proof) == 3 * 192 for r in res),
              "6 proofs of 3 partitions complete under a one-partition budget: %s" %
              [r.error_message for r in res if r.status != S.COMPLETED])
        check(cc.verify(b"".join(r.proof for r in res), tmp), "cuzk verify accepts all 18 proofs")
        m = settled(b)
        check(m["cuzk_memory_budget_bytes"] == budget and status(b).pinned_memory_limit_bytes == budget,
              "the configured budget is the one reported")
        check(key + part <= m["cuzk_memory_peak_bytes"] <= budget,
              "peak accounted %d within [keys + one partition, budget %d]" % (m["cuzk_memory_peak_bytes"], budget))
        check(m["cuzk_memory_used_bytes"] == key, "everything but the keys given back")
        check(m["cuzk_background_frees_total"] >= 18, "witnesses freed on the background thread")
        # the synthetic circuit: its throttle checks are counted (the throttle is on by default)
        p = b.c.Prove(pb.ProveRequest(submit=synth_req("synth-8-2")), timeout=HANG).result
        check(p.status == S.COMPLETED, "a synthetic proof under the budget (evicting g if need be): %s" %
              p.error_message)
        m = metrics(b)
        check(m["cuzk_synthesis_throttle_enabled"] == 1 and m["cuzk_synthesis_throttle_checks_total"] >= 2,
              "throttle on: checks counted")
        check(m["cuzk_memory_peak_bytes"] <= budget, "still within the budget")
        if 'cuzk_srs_bytes{circuit_id="g",tier="cold"}' in m:
            check(m["cuzk_memory_evictions_total"] >= 1, "g was evicted under pressure")
        check(b.stop() == 0, "the budget daemon stops cleanly")
    finally:
        if b.p.poll() is None:
            b.p.kill()
    # a partition larger than the whole budget fails at once, naming the sizes
    t = Daemon(tmp, extra='[memory]\ntotal_budget = "%d"\n' % int(key + part // 2), name="tiny")
    try:
        p = t.c.Prove(pb.ProveRequest(submit=generic_request("g", cc.g_witness)), timeout=HANG).result
        check(p.status == S.FAILED and "whole budget" in p.error_message and "total_budget" in p.error_message,
              "too large for the budget: %r" % p.error_message)
        check(metrics(t)["cuzk_memory_refused_total"] == 1, "counted as refused")
        check(t.stop() == 0, "the tiny daemon stops cleanly")
    finally:
        if t.p.poll() is None:
            t.p.kill()


def t_throttle_off(d, cc, tmp):
    reqs = [synth_req("synth-8-3"), generic_request("g", cc.g_witness)]
    res = [d.c.Prove(pb.ProveRequest(submit=r), timeout=HANG).result for r in reqs]
    check(all(r.status == S.COMPLETED for r in res), "throttle off: proofs complete")
    check(cc.verify(res[1].proof, tmp), "and verify")
    m = metrics(d)
    check(m["cuzk_synthesis_throttle_enabled"] == 0 and m["cuzk_synthesis_throttle_checks_total"] == 0,
          "throttle off: no checks made")


def t_config_errors(d, cc, tmp):
    cases = [('[memory]\ntotal_budget = "lots"\n', "memory.total_budget"),
             ('[memory]\ntotal_budget = 0\n', "memory.total_budget"),
             ('[memory]\ntotal_budget = true\n', "memory.total_budget"),
             ('[memory]\nsafety_margin = "1000000TiB"\n', "memory.safety_margin"),
             ('[memory]\neviction_min_idle = "soon"\n', "memory.eviction_min_idle"),
             ('[synthesis]\nthrottle = "yes"\n', "synthesis.throttle")]
    for i, (text, key) in enumerate(cases):
        cfg = os.path.join(tmp, "bad%d.toml" % i)
        with open(cfg, "w") as f:
            f.write('[daemon]\nlisten = "unix://%s/bad%d.sock"\nstate_dir = ""\n%s' % (tmp, i, text))
        r = subprocess.run([DAEMON, "-c", cfg], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=HANG)
        check(r.returncode == 2 and key in r.stderr, "%s: exit 2 naming %s (got %d: %s)" %
              (text.strip(), key, r.returncode, r.stderr.strip()))


def t_devices(d, cc, tmp):
    """[gpus] device_copies = 2: two device slots (two CPU backends, or two
    copies of each GPU), each with its workers, all fed from one queue"""
    check("; " in d.ready and "copy 2" in d.ready, "the ready line names both slots: %r" % d.ready.strip())
    st = status(d)
    slots_per_worker = len(st.gpus)
    check(slots_per_worker >= 2, "%d workers over two slots" % slots_per_worker)
    res = d.c.Prove(pb.ProveRequest(submit=synth_req("synth-8-4")), timeout=HANG).result
    check(res.status == S.COMPLETED and len(res.proof) == 4 * 192, "4 partitions proved over two slots")
    m = metrics(d)
    per = {k: v for k, v in m.items() if k.startswith("cuzk_device_partitions_total{")}
    check(len(per) == 2 and sum(per.values()) == 4, "partitions by slot: %r" % per)
    busy = [k for k in m if k.startswith("cuzk_device_busy_seconds_total{")]
    check(len(busy) == 2, "busy seconds by slot: %r" % busy)
    rests = {k: v for k, v in m.items() if k.startswith(("cuzk_device_rests_total{", "cuzk_device_resting{"))}
    check(len(rests) == 4 and not any(rests.values()), "healthy slots: no rests, none resting: %r" % rests)
    ends = d.timeline("GPU_END")
    devs = [dict(kv.split("=", 1) for kv in l[4:] if "=" in kv).get("device") for l in ends]
    check(len(ends) == 4 and all(x in ("0", "1") for x in devs), "GPU_END names the slot: %r" % devs)
    m = re.search(r"status (http://[\w.:\[\]]+)", d.ready)
    if m:  # the status page, where the daemon has it
        import json
        page = json.loads(http(m.group(1) + "/status")[2])
        check(len(page["devices"]) == 2 and sum(x["partitions"] for x in page["devices"]) == 4 and
              [w["slot"] for w in page["gpu_workers"]] == [0, 1], "/status lists the slots: %r" % page["devices"])
        check(all(x["rests"] == 0 and x["resting_seconds"] == 0 for x in page["devices"]),
              "/status: no slot rests: %r" % page["devices"])


TESTS = {n[2:]: f for n, f in globals().items() if n.startswith("t_")}
EXTRA = {"bad_requests": 'max_message_size = "1MiB"\n',
         "http_status": 'status_listen = "127.0.0.1:0"\n',
         "json_log": 'unknown_key_here = 1\n[logging]\nformat = "json"\n',
         "throttle_off": '[synthesis]\nthrottle = false\n',
         "devices": 'status_listen = "127.0.0.1:0"\n'}
GPUS = {"devices": 'device_copies = 2\ngpu_workers_per_device = 1\ndevice_fail_limit = 2\ndevice_rest = "30s"\n'}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in TESTS:
        print("usage: daemon_test.py {%s}" % "|".join(TESTS))
        return 2
    name = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="cuzk-daemon-test-")
    d = None
    skipped = False
    try:
        cc = Circuits(tmp)
        d = Daemon(tmp, extra=EXTRA.get(name, ""), gpus=GPUS.get(name, ""))
        TESTS[name](d, cc, tmp)
        if d.p is not None:
            rc = d.stop()
            check(rc == 0, "SIGTERM at the end: exit 0 (got %s)" % rc)
    except Skip as e:
        print("SKIP daemon_%s: %s" % (name, e))
        skipped = True
    except Exception as e:  # a crash is a failure, with the daemon's log
        FAILED.append("exception: %r" % e)
        import traceback
        traceback.print_exc()
    finally:
        if d is not None and d.p is not None and d.p.poll() is None:
            d.p.kill()
            d.p.wait()
        if FAILED and d is not None:
            print("---- daemon stderr (last 60 lines) ----")
            print("\n".join(open(d.err_path).read().splitlines()[-60:]))
        shutil.rmtree(tmp, ignore_errors=True)
    print("daemon_%s: %s" % (name, "FAILED: %d" % len(FAILED) if FAILED else "skipped" if skipped else "ok"))
    return 1 if FAILED else SKIP if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
