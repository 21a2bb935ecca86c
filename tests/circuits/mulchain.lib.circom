// mulchain.lib.circom — MulChain(n): out = a * b^n with one multiplication
// constraint per step (n constraints in all). `a` is meant to be public and
// `b` private; the chain length sets the size of the proof for benchmarks.
pragma circom 2.0.0;

template MulChain(n) {
    signal input a;
    signal input b;
    signal output out;
    signal s[n + 1];
    s[0] <== a;
    for (var i = 1; i <= n; i++) {
        s[i] <== s[i - 1] * b;
    }
    out <== s[n];
}
