// mulchain.circom — a 1000-step multiplication chain (domain 2^10 with its
// public inputs): public a, private b, public output a * b^1000.
pragma circom 2.0.0;
include "mulchain.lib.circom";

component main {public [a]} = MulChain(1000);
