"""proto_wire_test.py — the cuzk.v1 API as compiled from our proving.proto
must match the wire contract of the reference engine's API, field by field.

The expected table below is the contract as docs/ARCHITECTURE.md ("server —
gRPC", wire compatibility) states it: package, service, RPCs, every
message's fields (name, number, type, label, message or enum type) and every
enum value, plus our two additions (GROTH16_GENERIC = 100,
SubmitProofRequest.circuit_id = 40). The descriptor checked is the one protoc
generated at build time (build/proto_py, on PYTHONPATH).

The checker also runs against altered copies of the descriptor (a field
renumbered, a type changed, an enum value renamed, a field or RPC removed)
and must reject each, so a checker that accepts everything fails here.

Exit 0: all matched; 1: a difference (each printed)."""
import sys

from google.protobuf import descriptor_pb2 as dpb

from cuzk.v1 import proving_pb2

F = dpb.FieldDescriptorProto
S, U64, U32, BY, BO, EN, MS = (F.TYPE_STRING, F.TYPE_UINT64, F.TYPE_UINT32, F.TYPE_BYTES, F.TYPE_BOOL,
                               F.TYPE_ENUM, F.TYPE_MESSAGE)
OPT, REP = F.LABEL_OPTIONAL, F.LABEL_REPEATED

PACKAGE = "cuzk.v1"
SERVICE = "ProvingEngine"
RPCS = {  # name: (request, response), all unary
    "SubmitProof": ("SubmitProofRequest", "SubmitProofResponse"),
    "AwaitProof": ("AwaitProofRequest", "AwaitProofResponse"),
    "Prove": ("ProveRequest", "ProveResponse"),
    "CancelProof": ("CancelProofRequest", "CancelProofResponse"),
    "GetStatus": ("GetStatusRequest", "GetStatusResponse"),
    "GetMetrics": ("GetMetricsRequest", "GetMetricsResponse"),
    "PreloadSRS": ("PreloadSrsRequest", "PreloadSrsResponse"),
    "EvictSRS": ("EvictSrsRequest", "EvictSrsResponse"),
}

ENUMS = {
    "ProofKind": {"PROOF_KIND_UNSPECIFIED": 0, "POREP_SEAL_COMMIT": 1, "SNAP_DEALS_UPDATE": 2,
                  "WINDOW_POST_PARTITION": 3, "WINNING_POST": 4,
                  "GROTH16_GENERIC": 100},  # ours
    "Priority": {"PRIORITY_UNSPECIFIED": 0, "LOW": 1, "NORMAL": 2, "HIGH": 3, "CRITICAL": 4},
    "AwaitProofResponse.Status": {"UNKNOWN": 0, "COMPLETED": 1, "FAILED": 2, "CANCELLED": 3, "TIMEOUT": 4},
    "SRSStatus.Tier": {"HOT": 0, "WARM": 1, "COLD": 2},
}

# message: {field: (number, type, label, type name or None)}
MESSAGES = {
    "SubmitProofRequest": {
        "request_id": (1, S, OPT, None), "proof_kind": (2, EN, OPT, "ProofKind"), "sector_size": (3, U64, OPT, None),
        "registered_proof": (4, U64, OPT, None), "priority": (5, EN, OPT, "Priority"),
        "vanilla_proof": (10, BY, OPT, None), "vanilla_proofs": (11, BY, REP, None),
        "sector_number": (20, U64, OPT, None), "miner_id": (21, U64, OPT, None), "randomness": (22, BY, OPT, None),
        "partition_index": (23, U32, OPT, None), "comm_r_old": (30, BY, OPT, None),
        "comm_r_new": (31, BY, OPT, None), "comm_d_new": (32, BY, OPT, None),
        "circuit_id": (40, S, OPT, None),  # ours
    },
    "SubmitProofResponse": {"job_id": (1, S, OPT, None), "queue_position": (2, U32, OPT, None),
                            "assigned_gpu": (3, S, OPT, None)},
    "AwaitProofRequest": {"job_id": (1, S, OPT, None), "timeout_ms": (2, U64, OPT, None)},
    "AwaitProofResponse": {
        "job_id": (1, S, OPT, None), "status": (2, EN, OPT, "AwaitProofResponse.Status"),
        "proof": (3, BY, OPT, None), "error_message": (4, S, OPT, None), "queue_wait_ms": (10, U64, OPT, None),
        "srs_load_ms": (11, U64, OPT, None), "synthesis_ms": (12, U64, OPT, None),
        "gpu_compute_ms": (13, U64, OPT, None), "total_ms": (14, U64, OPT, None),
    },
    "ProveRequest": {"submit": (1, MS, OPT, "SubmitProofRequest")},
    "ProveResponse": {"result": (1, MS, OPT, "AwaitProofResponse")},
    "CancelProofRequest": {"job_id": (1, S, OPT, None)},
    "CancelProofResponse": {"was_running": (1, BO, OPT, None)},
    "GetStatusRequest": {},
    "GetStatusResponse": {
        "gpus": (1, MS, REP, "GPUStatus"), "loaded_srs": (2, MS, REP, "SRSStatus"),
        "queues": (3, MS, REP, "QueueStatus"), "total_proofs_completed": (4, U64, OPT, None),
        "total_proofs_failed": (5, U64, OPT, None), "uptime_seconds": (6, U64, OPT, None),
        "pinned_memory_bytes": (7, U64, OPT, None), "pinned_memory_limit_bytes": (8, U64, OPT, None),
    },
    "GPUStatus": {"ordinal": (1, U32, OPT, None), "name": (2, S, OPT, None), "vram_total_bytes": (3, U64, OPT, None),
                  "vram_free_bytes": (4, U64, OPT, None), "current_job_id": (5, S, OPT, None),
                  "current_proof_kind": (6, S, OPT, None)},
    "SRSStatus": {"circuit_id": (1, S, OPT, None), "tier": (2, EN, OPT, "SRSStatus.Tier"),
                  "size_bytes": (3, U64, OPT, None), "ref_count": (4, U32, OPT, None)},
    "QueueStatus": {"proof_kind": (1, S, OPT, None), "pending": (2, U32, OPT, None),
                    "in_progress": (3, U32, OPT, None)},
    "PreloadSrsRequest": {"circuit_id": (1, S, OPT, None)},
    "PreloadSrsResponse": {"already_loaded": (1, BO, OPT, None), "load_time_ms": (2, U64, OPT, None)},
    "EvictSrsRequest": {"circuit_id": (1, S, OPT, None)},
    "EvictSrsResponse": {"was_loaded": (1, BO, OPT, None), "freed_bytes": (2, U64, OPT, None)},
    "GetMetricsRequest": {},
    "GetMetricsResponse": {"prometheus_text": (1, S, OPT, None)},
}


def check(fd):
    """fd: a FileDescriptorProto; returns the list of differences"""
    errs = []
    if fd.syntax != "proto3":
        errs.append("syntax %r, expected proto3" % fd.syntax)
    if fd.package != PACKAGE:
        errs.append("package %r, expected %r" % (fd.package, PACKAGE))
    q = lambda n: "." + PACKAGE + "." + n  # noqa: E731

    svcs = {s.name: s for s in fd.service}
    if set(svcs) != {SERVICE}:
        errs.append("services %s, expected [%s]" % (sorted(svcs), SERVICE))
    if SERVICE in svcs:
        got = {m.name: m for m in svcs[SERVICE].method}
        for name in sorted(set(got) | set(RPCS)):
            if name not in got:
                errs.append("rpc %s: missing" % name)
            elif name not in RPCS:
                errs.append("rpc %s: not in the API" % name)
            else:
                m, (req, resp) = got[name], RPCS[name]
                if (m.input_type, m.output_type) != (q(req), q(resp)):
                    errs.append("rpc %s: %s -> %s, expected %s -> %s" % (name, m.input_type, m.output_type,
                                                                        q(req), q(resp)))
                if m.client_streaming or m.server_streaming:
                    errs.append("rpc %s: streaming, expected unary" % name)

    enums, msgs = {}, {}

    def walk(ms, prefix):
        for m in ms:
            msgs[prefix + m.name] = m
            for e in m.enum_type:
                enums[prefix + m.name + "." + e.name] = e
            walk(m.nested_type, prefix + m.name + ".")
    walk(fd.message_type, "")
    for e in fd.enum_type:
        enums[e.name] = e

    for name in sorted(set(enums) | set(ENUMS)):
        if name not in enums:
            errs.append("enum %s: missing" % name)
        elif name not in ENUMS:
            errs.append("enum %s: not in the API" % name)
        else:
            got = {v.name: v.number for v in enums[name].value}
            if got != ENUMS[name]:
                errs.append("enum %s: %s, expected %s" % (name, got, ENUMS[name]))

    for name in sorted(set(msgs) | set(MESSAGES)):
        if name not in msgs:
            errs.append("message %s: missing" % name)
            continue
        if name not in MESSAGES:
            errs.append("message %s: not in the API" % name)
            continue
        got = {f.name: f for f in msgs[name].field}
        want = MESSAGES[name]
        for fname in sorted(set(got) | set(want)):
            if fname not in got:
                errs.append("%s.%s: missing" % (name, fname))
                continue
            if fname not in want:
                errs.append("%s.%s: not in the API (number %d)" % (name, fname, got[fname].number))
                continue
            f, (num, typ, lab, tname) = got[fname], want[fname]
            have = (f.number, f.type, f.label, f.type_name or None)
            exp = (num, typ, lab, q(tname) if tname else None)
            if have != exp:
                errs.append("%s.%s: (number, type, label, type name) %s, expected %s" % (name, fname, have, exp))
            if f.HasField("oneof_index") or f.proto3_optional:
                errs.append("%s.%s: in a oneof or proto3 optional, expected a plain field" % (name, fname))
        nums = [f.number for f in msgs[name].field]
        if len(nums) != len(set(nums)):
            errs.append("%s: a field number used twice" % name)
    return errs


def ours():
    fd = dpb.FileDescriptorProto()
    fd.ParseFromString(proving_pb2.DESCRIPTOR.serialized_pb)
    return fd


def find_field(fd, msg, field):
    for m in fd.message_type:
        if m.name == msg:
            for f in m.field:
                if f.name == field:
                    return m, f
    raise KeyError("%s.%s" % (msg, field))


def mutations():
    """(what, altered descriptor) pairs the checker must reject"""
    out = []
    fd = ours(); find_field(fd, "SubmitProofRequest", "priority")[1].number = 6
    out.append(("a field renumbered", fd))
    fd = ours(); find_field(fd, "AwaitProofRequest", "timeout_ms")[1].type = F.TYPE_UINT32
    out.append(("a field's type changed", fd))
    fd = ours(); find_field(fd, "SubmitProofRequest", "vanilla_proofs")[1].label = OPT
    out.append(("repeated made singular", fd))
    fd = ours(); m, f = find_field(fd, "GetStatusResponse", "pinned_memory_limit_bytes"); m.field.remove(f)
    out.append(("a field removed", fd))
    fd = ours()
    for e in fd.enum_type:
        if e.name == "Priority":
            e.value[4].name = "PRIORITY_CRITICAL"
    out.append(("an enum value renamed", fd))
    fd = ours()
    for m in fd.message_type:
        if m.name == "SRSStatus":
            m.enum_type[0].value[0].number = 3
    out.append(("a nested enum value renumbered", fd))
    fd = ours(); del fd.service[0].method[7]
    out.append(("an rpc removed", fd))
    fd = ours(); fd.package = "cuzk.v2"
    out.append(("the package renamed", fd))
    return out


def main():
    errs = check(ours())
    for e in errs:
        print("proto: " + e)
    bad = 0
    for what, fd in mutations():
        if not check(fd):
            print("checker accepted a descriptor with %s" % what)
            bad += 1
    if errs or bad:
        return 1
    print("proto: cuzk.v1 matches: %d rpcs, %d messages, %d enums; the checker rejects %d altered descriptors"
          % (len(RPCS), len(MESSAGES), len(ENUMS), len(mutations())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
