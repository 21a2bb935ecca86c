// gadgets.circom — circomlib's everyday gadgets compiled for BLS12-381:
// LessThan(32) range comparisons counted over an array, Num2Bits(64) of a
// product, Poseidon(3) over a mix of inputs and bits, and a Mux1 choosing
// between a constant-shifted input (a constant wider than 64 bits) and a
// product; three public outputs and two public inputs (about 970
// constraints: ptau power 10).
pragma circom 2.0.0;
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mux1.circom";

template Gadgets(N) {
    signal input xs[N];
    signal input sel;
    signal input salt;
    signal output hash;
    signal output count;
    signal output picked;
    component lt[N];
    signal acc[N + 1];
    acc[0] <== 0;
    for (var i = 0; i < N; i++) {
        lt[i] = LessThan(32);
        lt[i].in[0] <== xs[i];
        lt[i].in[1] <== 1000000;
        acc[i + 1] <== acc[i] + lt[i].out;
    }
    count <== acc[N];
    component bits = Num2Bits(64);
    bits.in <== xs[0] * xs[1] + 7;
    component h = Poseidon(3);
    h.inputs[0] <== xs[2];
    h.inputs[1] <== salt;
    h.inputs[2] <== bits.out[5] + 2 * bits.out[17];
    hash <== h.out;
    component m = Mux1();
    m.c[0] <== xs[3] - 12345678901234567890;
    m.c[1] <== h.out * salt;
    m.s <== sel;
    picked <== m.out;
}

component main {public [sel, salt]} = Gadgets(8);
