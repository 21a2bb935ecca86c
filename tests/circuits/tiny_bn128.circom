// tiny_bn128.circom — a few constraints compiled for BN254 (--prime bn128):
// its zkey and witness must be refused by cuzk, which proves over BLS12-381
// only, with a message naming the curve.
pragma circom 2.0.0;
include "mulchain.lib.circom";

component main {public [a]} = MulChain(4);
