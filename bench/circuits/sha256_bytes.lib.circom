// sha256_bytes.lib.circom — Sha256Bytes(nBytes): circomlib's SHA-256 of a
// private nBytes-byte message (given as bytes, split into bits here, most
// significant bit first), the digest published as two 128-bit halves. The
// cost is about 29k constraints per 64-byte compression block (a message of
// nBytes needs floor((nBytes + 8) / 64) + 1 blocks): 32 bytes -> 1 block
// (ptau power 15), 64 bytes -> 2 blocks (power 16), 128 -> 3 (power 17). A
// benchmark workload (scripts/interop-bench-prepare).
pragma circom 2.0.0;
include "circomlib/circuits/sha256/sha256.circom";
include "circomlib/circuits/bitify.circom";

template Sha256Bytes(nBytes) {
    signal input msg[nBytes];
    signal output hi;
    signal output lo;
    component bytes[nBytes];
    component sha = Sha256(nBytes * 8);
    for (var i = 0; i < nBytes; i++) {
        bytes[i] = Num2Bits(8);
        bytes[i].in <== msg[i];
        for (var b = 0; b < 8; b++) {
            sha.in[i * 8 + b] <== bytes[i].out[7 - b];
        }
    }
    component h = Bits2Num(128);
    component l = Bits2Num(128);
    for (var b = 0; b < 128; b++) {
        h.in[b] <== sha.out[127 - b];
        l.in[b] <== sha.out[255 - b];
    }
    hi <== h.out;
    lo <== l.out;
}
