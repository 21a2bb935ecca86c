// poseidon_chain.lib.circom — PoseidonChain(n): n circomlib Poseidon(2)
// hashes in a chain, h_i = Poseidon(h_{i-1}, x + i), h_0 = Poseidon(seed, x);
// public seed, private x, public output h_n. About 517 constraints per hash
// with circom's default simplification (--O1). A benchmark workload
// (scripts/interop-bench-prepare), compiled for BLS12-381 with circomlib's
// BN254 constants, which are valid BLS12-381 scalars.
pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";

template PoseidonChain(n) {
    signal input seed;
    signal input x;
    signal output out;
    component p[n];
    for (var i = 0; i < n; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== i == 0 ? seed : p[i - 1].out;
        p[i].inputs[1] <== x + i;
    }
    out <== p[n - 1].out;
}
