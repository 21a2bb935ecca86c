/* cuzk_vectors_ec.c — group, decoding and pairing ops of `cuzk vectors check`
 * (filled in when the G1/G2 and pairing layers are available). */
#include "cmd/cuzk_vectors.h"

const cz__vop cz__vops_ec[] = {
    { NULL, NULL },
};
