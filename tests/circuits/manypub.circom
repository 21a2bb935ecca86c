// manypub.circom — 48 public inputs and 3 public outputs, so that the IC
// part of the key and the order of public signals matter. Horner evaluation
// of the polynomial with coefficients x[0..47] at the private point k, plus
// the sum of the inputs and their product with k (outputs come first among
// the public signals, then the inputs, as circom orders them).
pragma circom 2.0.0;

template ManyPublic(n) {
    signal input x[n];
    signal input k;
    signal output poly;
    signal output sum;
    signal output sumk;
    signal h[n];
    var acc = 0;
    h[0] <== x[n - 1];
    for (var i = 1; i < n; i++) {
        h[i] <== h[i - 1] * k + x[n - 1 - i];
    }
    for (var i = 0; i < n; i++) {
        acc += x[i];
    }
    poly <== h[n - 1];
    sum <== acc;
    sumk <== acc * k;
}

component main {public [x]} = ManyPublic(48);
