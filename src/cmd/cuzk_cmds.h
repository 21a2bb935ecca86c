/* cuzk_cmds.h — the subcommands of `cuzk`, one file each (cuzk_<name>.c).
 * Each takes argv starting at its own name and returns the exit code. */
#ifndef CZ_CMD_CMDS_H
#define CZ_CMD_CMDS_H

int cz_cmd_vectors(int argc, char **argv);
int cz_cmd_demo(int argc, char **argv);
int cz_cmd_synth(int argc, char **argv);
int cz_cmd_setup(int argc, char **argv);
int cz_cmd_prove(int argc, char **argv);
int cz_cmd_verify(int argc, char **argv);
int cz_cmd_inspect(int argc, char **argv);
int cz_cmd_groth16(int argc, char **argv); /* cuzk_snarkjs.c */
int cz_cmd_zkey(int argc, char **argv);    /* cuzk_snarkjs.c */
int cz_cmd_hash(int argc, char **argv);
int cz_cmd_hash_poseidon(int argc, char **argv);
int cz_cmd_gadget(int argc, char **argv);

#endif
