// hashes.circom — circomlib hashes compiled for BLS12-381: Poseidon(2) of the
// two public inputs, then MiMC7(91) of that keyed by a private salt (about
// 880 constraints, linear ones included: ptau power 10). circomlib's constants
// were chosen for BN254, but they are field elements of the larger
// BLS12-381 scalar field as well, and x^5 and x^7 stay permutations there
// (5 and 7 do not divide r - 1), so the circuit is a valid, if non-standard,
// hash; what matters here is a real circuit shape made by others.
pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mimc.circom";

template Hashes(n) {
    signal input in[2];
    signal input salt;
    signal output h;
    signal output m;
    component p[n];
    for (var i = 0; i < n; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== i == 0 ? in[0] : p[i - 1].out;
        p[i].inputs[1] <== i == 0 ? in[1] : salt + i;
    }
    h <== p[n - 1].out;
    component s = MiMC7(91);
    s.x_in <== h;
    s.k <== salt;
    m <== s.out;
}

component main {public [in]} = Hashes(1);
