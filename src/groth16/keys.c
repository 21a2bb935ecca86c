/* keys.c — releasing Groth16 keys. The query arrays are heap-owned or point
 * into pk->map; vk.ic is always on the heap. */
#include "groth16/groth16.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "util/mapguard.h"

void cz_groth16_vk_free(cz_groth16_vk *vk)
{
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

void cz_groth16_pk_free(cz_groth16_pk *pk)
{
    if (pk->map) {
        cz_mapguard_unmap(pk->map, pk->map_len);
    } else {
        free(pk->h); free(pk->l); free(pk->a); free(pk->b_g1); free(pk->b_g2);
    }
    free(pk->vk.ic);
    memset(pk, 0, sizeof *pk);
}
