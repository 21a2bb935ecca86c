pragma circom 2.0.0;

// A small test circuit: a chain of quadratic steps with a linear term, one
// public input, two outputs and a private input.
template Chain(n) {
    signal input x;
    signal input y;
    signal output out;
    signal output out2;
    signal t[n];
    t[0] <== x * y;
    for (var i = 1; i < n; i++) {
        t[i] <== t[i-1] * (t[i-1] + 3 * x - 7);
    }
    out <== t[n-1] * (y + 11);
    out2 <== t[n-2] * t[n-3];
}

component main {public [y]} = Chain(40);
