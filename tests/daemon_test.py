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
    def __init__(self, d, extra="", name="daemon", shutdown="20s"):
        self.dir = d
        self.sock = os.path.join(d, name + ".sock")
        self.addr = "unix://" + self.sock
        self.cfg = os.path.join(d, name + ".toml")
        with open(self.cfg, "w") as f:
            f.write('[daemon]\nlisten = "%s"\nshutdown_timeout = "%s"\nstate_dir = "%s"\n%s\n'
                    '[srs]\nparam_cache = "%s"\n[gpus]\ngpu_threads = 2\n' %
                    (self.addr, shutdown, os.path.join(d, "state-" + name), extra, os.path.join(d, "params")))
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
    check(any(q.proof_kind == "groth16_generic" for q in st.queues), "status lists the generic queue")
    check(len(st.gpus) >= 1, "status lists the proving workers")
    m = c.GetMetrics(pb.GetMetricsRequest(), timeout=HANG).prometheus_text
    for name in ["cuzk_proofs_completed_total 4", "cuzk_proofs_failed_total 0", "cuzk_uptime_seconds",
                 "cuzk_queue_depth", 'cuzk_proofs_completed{proof_kind="groth16_generic"} 4',
                 'cuzk_proofs_failed{proof_kind="groth16_generic"} 0', "cuzk_proof_duration_seconds_bucket",
                 "cuzk_proof_duration_seconds_count 4", "cuzk_running_jobs 0", "cuzk_gpu_workers 1",
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
    normal = [submit(d, synth_req("synth-6-1", prio=pb.PRIORITY_NORMAL)).job_id for _ in range(4)]
    low = submit(d, synth_req("synth-6-1", prio=pb.PRIORITY_LOW)).job_id
    dflt = submit(d, generic_request("g", cc.g_witness)).job_id  # UNSPECIFIED generic = NORMAL
    crit = submit(d, synth_req("synth-6-1", prio=pb.PRIORITY_CRITICAL)).job_id
    high = submit(d, synth_req("synth-6-1", prio=pb.PRIORITY_HIGH)).job_id
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
    check(srs["g"].tier == pb.SRSStatus.WARM and srs["g"].size_bytes > 0, "g is WARM with a size")
    check("synth-8" in srs, "the synthetic keys are listed")
    e = c.EvictSRS(pb.EvictSrsRequest(circuit_id="g"), timeout=HANG)
    check(e.was_loaded and e.freed_bytes > 0, "evict frees g")
    srs = {s.circuit_id: s for s in status(d).loaded_srs}
    check(srs["g"].tier == pb.SRSStatus.COLD, "g is COLD after evict")
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
    # SIGTERM with work under way: it finishes (shutdown_timeout is 20 s) and exits 0
    jobs = [submit(d, generic_request("g", cc.g_witness)).job_id for _ in range(3)]
    wc = Client(d.addr)
    waiter = wc.AwaitProof.future(pb.AwaitProofRequest(job_id=jobs[-1]), timeout=HANG)
    time.sleep(0.05)
    rc = d.stop()
    check(rc == 0, "SIGTERM: exit 0 (got %s)" % rc)
    check(waiter.result().status in (S.COMPLETED, S.CANCELLED), "the waiting client got an answer")
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


def t_memory(d, cc, tmp):
    # the default daemon: "auto" = MemTotal less the 5GiB margin, reported both ways
    st = status(d)
    m = metrics(d)
    check(st.pinned_memory_limit_bytes > 0 and m["cuzk_memory_budget_bytes"] == st.pinned_memory_limit_bytes,
          "auto budget reported by GetStatus and the metrics")
    d.c.PreloadSRS(pb.PreloadSrsRequest(circuit_id="g"), timeout=HANG)
    m = metrics(d)
    key = m['cuzk_srs_bytes{circuit_id="g",tier="warm"}']
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


TESTS = {n[2:]: f for n, f in globals().items() if n.startswith("t_")}
EXTRA = {"bad_requests": 'max_message_size = "1MiB"\n', "throttle_off": '[synthesis]\nthrottle = false\n'}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in TESTS:
        print("usage: daemon_test.py {%s}" % "|".join(TESTS))
        return 2
    name = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="cuzk-daemon-test-")
    d = None
    try:
        cc = Circuits(tmp)
        d = Daemon(tmp, extra=EXTRA.get(name, ""))
        TESTS[name](d, cc, tmp)
        if d.p is not None:
            rc = d.stop()
            check(rc == 0, "SIGTERM at the end: exit 0 (got %s)" % rc)
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
    print("daemon_%s: %s" % (name, "FAILED: %d" % len(FAILED) if FAILED else "ok"))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
