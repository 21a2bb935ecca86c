/* fuzz_formats.c — the .params / .vk / proof / pk-cache readers under
 * ASan/UBSan with mutated inputs: bit flips, random bytes, count fields
 * overwritten with huge, small and off-by-one values, truncations and
 * extensions. Nothing may crash or leak, and whatever is accepted must be
 * canonical: re-encoding an accepted .params, .vk or proof file gives back
 * the very same bytes. Bounded by an iteration count and a 25 s wall clock. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "formats/params.h"
#include "formats/pkcache.h"
#include "formats/proof.h"
#include "formats_testkey.inc"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint32_t pick_count(cz_rng *rng, uint32_t orig)
{
    switch (cz_rng_u64(rng) % 8) {
    case 0: return 0xffffffffu;
    case 1: return 0x80000000u | (uint32_t)cz_rng_u64(rng);
    case 2: return 0;
    case 3: return orig + 1;
    case 4: return orig - 1;
    case 5: return (uint32_t)(cz_rng_u64(rng) % 64);
    case 6: return (uint32_t)cz_rng_u64(rng) >> (cz_rng_u64(rng) % 32);
    default: return orig + (uint32_t)(cz_rng_u64(rng) % 5);
    }
}

/* mutates buf[0..*len) in place (cap bytes available); count_offs lists
 * offsets of length fields (BE u32 if be, else LE u64) */
static void mutate(uint8_t *buf, size_t *len, size_t cap, const size_t *count_offs, int n_counts, int be,
                   cz_rng *rng)
{
    int rounds = 1 + (int)(cz_rng_u64(rng) % 3);
    for (int r = 0; r < rounds; r++) {
        size_t n = *len;
        switch (cz_rng_u64(rng) % 7) {
        case 0: /* bit flips */
            for (int k = 1 + (int)(cz_rng_u64(rng) % 4); k > 0 && n; k--) {
                size_t bit = cz_rng_u64(rng) % (n * 8);
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
            break;
        case 1: /* random bytes */
            for (int k = 1 + (int)(cz_rng_u64(rng) % 8); k > 0 && n; k--)
                buf[cz_rng_u64(rng) % n] = (uint8_t)cz_rng_u64(rng);
            break;
        case 2:
        case 3: { /* a count field */
            if (!n_counts) break;
            size_t o = count_offs[cz_rng_u64(rng) % (uint64_t)n_counts];
            if (be) {
                if (o + 4 > n) break;
                uint32_t orig = (uint32_t)buf[o] << 24 | (uint32_t)buf[o + 1] << 16 | (uint32_t)buf[o + 2] << 8 | buf[o + 3];
                uint32_t v = pick_count(rng, orig);
                buf[o] = (uint8_t)(v >> 24); buf[o + 1] = (uint8_t)(v >> 16); buf[o + 2] = (uint8_t)(v >> 8); buf[o + 3] = (uint8_t)v;
            } else {
                if (o + 8 > n) break;
                uint64_t orig = 0, v;
                for (int i = 0; i < 8; i++) orig |= (uint64_t)buf[o + i] << (8 * i);
                v = cz_rng_u64(rng) & 1 ? (uint64_t)pick_count(rng, (uint32_t)orig)
                                        : cz_rng_u64(rng) >> (cz_rng_u64(rng) % 64);
                for (int i = 0; i < 8; i++) buf[o + i] = (uint8_t)(v >> (8 * i));
            }
            break;
        }
        case 4: /* truncate */
            *len = n ? cz_rng_u64(rng) % n : 0;
            break;
        case 5: { /* extend with random bytes */
            size_t add = cz_rng_u64(rng) % 300;
            if (n + add > cap) add = cap - n;
            for (size_t i = 0; i < add; i++) buf[n + i] = (uint8_t)cz_rng_u64(rng);
            *len = n + add;
            break;
        }
        default: /* a random 4-byte big-endian value anywhere (a count in a shifted place) */
            if (n >= 4) {
                size_t o = cz_rng_u64(rng) % (n - 3);
                uint32_t v = pick_count(rng, 0);
                buf[o] = (uint8_t)(v >> 24); buf[o + 1] = (uint8_t)(v >> 16); buf[o + 2] = (uint8_t)(v >> 8); buf[o + 3] = (uint8_t)v;
            }
        }
    }
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_formats", 23));
    cz_pool *pool;
    CHECK(cz_pool_create(&pool, 2) == CZ_OK);
    char dir[] = "/tmp/cuzk_ffmt_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/f.bin", dir);
    char msg[256];
    double t0 = now();
    const long n_params = cz_fuzz_count("fuzz_formats", "params/vk images", 6000),
               n_proofs = cz_fuzz_count("fuzz_formats", "proof files", 6000),
               n_cache = cz_fuzz_count("fuzz_formats", "pk cache images", 20000);

    /* seeds: a small .params (with a non-subgroup point in h), its .vk, a
     * proof file, a pk cache */
    cz_groth16_pk pk;
    rand_pk(&pk, 2, 5, 6, 4, 3, 3, &rng);
    nonsub_g1(&pk.h[2], &rng);
    size_t plen = (size_t)cz_params_encoded_size(&pk), vlen = (size_t)cz_vk_encoded_size(&pk.vk);
    size_t cap = plen + 512;
    uint8_t *params = malloc(cap), *buf = malloc(cap), *re = malloc(cap);
    CHECK(cz_params_encode(params, plen, &pk, msg, sizeof msg) == CZ_OK);
    size_t poffs[6];
    {
        cz_params_info in;
        CHECK(cz_params_peek_mem(&in, params, plen, msg, sizeof msg) == CZ_OK);
        poffs[0] = (size_t)in.off_ic - 4; poffs[1] = (size_t)in.off_h - 4; poffs[2] = (size_t)in.off_l - 4;
        poffs[3] = (size_t)in.off_a - 4; poffs[4] = (size_t)in.off_b_g1 - 4; poffs[5] = (size_t)in.off_b_g2 - 4;
    }
    long accepted[4] = {0, 0, 0, 0}, tried[4] = {0, 0, 0, 0};
    int bad_reencode = 0;

    /* 1. .params and .vk images */
    for (long it = 0; it < n_params; it++) {
        int vk_only = it % 4 == 3;
        size_t len = vk_only ? vlen : plen;
        memcpy(buf, params, len);
        mutate(buf, &len, cap, poffs, vk_only ? 1 : 6, 1, &rng);
        cz_params_info in;
        cz_err pe = cz_params_peek_mem(&in, buf, len, msg, sizeof msg);
        if (pe == CZ_OK) CHECK(in.size == len);
        if (!vk_only) {
            cz_groth16_pk q;
            tried[0]++;
            cz_err e = cz_params_read_mem(&q, buf, len, it & 1, it & 2 ? pool : NULL, msg, sizeof msg);
            if (e == CZ_OK) {
                accepted[0]++;
                CHECK(pe == CZ_OK);
                uint64_t sz = cz_params_encoded_size(&q);
                if (sz != len || cz_params_encode(re, cap, &q, msg, sizeof msg) != CZ_OK || memcmp(re, buf, len))
                    bad_reencode++;
                cz_groth16_pk_free(&q);
            } else {
                CHECK(q.h == NULL && q.vk.ic == NULL && msg[0]);
            }
        }
        cz_groth16_vk vk;
        tried[1]++;
        cz_err e = cz_vk_read_mem(&vk, buf, len, pool, msg, sizeof msg);
        if (e == CZ_OK) {
            accepted[1]++;
            uint64_t sz = cz_vk_encoded_size(&vk);
            if (sz > len || cz_vk_encode(re, cap, &vk, msg, sizeof msg) != CZ_OK || memcmp(re, buf, (size_t)sz))
                bad_reencode++;
            cz_groth16_vk_free(&vk);
        }
        if (it % 200 == 0) { /* the file path (mmap) too */
            spit(path, buf, len);
            cz_groth16_pk q;
            if (cz_params_read(&q, path, 1, pool, msg, sizeof msg) == CZ_OK) cz_groth16_pk_free(&q);
            if (cz_params_peek(&in, path, msg, sizeof msg) == CZ_OK) CHECK(in.size == len);
        }
    }

    /* 2. proof files */
    enum { K = 3 };
    cz_groth16_proof pr[K];
    {
        cz_g1_aff g1[2 * K];
        cz_g2_aff g2[K];
        rand_g1s(g1, 2 * K, &rng);
        rand_g2s(g2, K, &rng);
        for (int i = 0; i < K; i++) { pr[i].a = g1[2 * i]; pr[i].b = g2[i]; pr[i].c = g1[2 * i + 1]; }
    }
    uint8_t proofs[K * 192];
    for (int i = 0; i < K; i++) cz_proof_encode(proofs + 192 * i, &pr[i]);
    for (long it = 0; it < n_proofs; it++) {
        size_t len = sizeof proofs;
        memcpy(buf, proofs, len);
        mutate(buf, &len, cap, NULL, 0, 1, &rng);
        cz_groth16_proof *out;
        size_t n;
        tried[2]++;
        if (cz_proofs_decode(&out, &n, buf, len, msg, sizeof msg) == CZ_OK) {
            accepted[2]++;
            CHECK(n * 192 == len);
            for (size_t i = 0; i < n; i++) {
                cz_proof_encode(re, &out[i]);
                if (memcmp(re, buf + 192 * i, 192)) bad_reencode++;
            }
            free(out);
        } else {
            CHECK(out == NULL && n == 0);
        }
    }

    /* 3. pk cache images */
    cz_groth16_pk_free(&pk);
    rand_pk(&pk, 2, 5, 6, 4, 3, 3, &rng);
    CHECK(cz_pkcache_write(path, &pk, 0, msg, sizeof msg) == CZ_OK);
    size_t clen;
    uint8_t *cache = slurp(path, &clen);
    CHECK(cache != NULL);
    uint8_t *cbuf0 = malloc(clen + 513), *cbuf = cbuf0;
    const size_t coffs[7] = {24, 32, 40, 48, 56, 64, 88};
    for (long it = 0; it < n_cache && cache; it++) {
        size_t len = clen;
        cbuf = cbuf0 + (it % 3 == 0); /* sometimes unaligned */
        memcpy(cbuf, cache, len);
        mutate(cbuf, &len, clen + 512, coffs, 7, 0, &rng);
        int changed = len != clen || memcmp(cbuf, cache, len) != 0;
        cz_groth16_pk q;
        tried[3]++;
        cz_err e = cz_pkcache_load_mem(&q, NULL, cbuf, len, it & 1, msg, sizeof msg);
        if (e == CZ_OK) {
            accepted[3]++;
            /* with the checksum on, a changed image must not pass */
            if (it & 1) CHECK(!changed);
            /* touch every point (ASan checks the copies are as long as the counts) */
            volatile uint64_t acc = 0;
            for (size_t i = 0; i < q.n_h; i++) acc += q.h[i].x.l[0];
            for (size_t i = 0; i < q.n_b_g2; i++) acc += q.b_g2[i].y.c1.l[5];
            for (size_t i = 0; i < q.vk.n_ic; i++) acc += q.vk.ic[i].y.l[5];
            (void)acc;
            cz_groth16_pk_free(&q);
        } else {
            CHECK(q.h == NULL && q.vk.ic == NULL && q.map == NULL);
        }
        if (it % 500 == 0) {
            char cpath[160];
            snprintf(cpath, sizeof cpath, "%s/g.pkc", dir);
            spit(cpath, cbuf, len);
            if (cz_pkcache_open(&q, NULL, cpath, 0, msg, sizeof msg) == CZ_OK) {
                volatile uint64_t acc = 0;
                for (size_t i = 0; i < q.n_l; i++) acc += q.l[i].y.l[5];
                for (size_t i = 0; i < q.n_b_g2; i++) acc += q.b_g2[i].y.c1.l[5];
                (void)acc;
                cz_groth16_pk_free(&q);
            }
            unlink(cpath);
        }
    }
    CHECK(bad_reencode == 0);
    /* the unmutated seeds are accepted (the harness is not refusing everything) */
    cz_groth16_pk q;
    CHECK(cz_params_read_mem(&q, params, plen, 0, pool, msg, sizeof msg) == CZ_OK);
    cz_groth16_pk_free(&q);
    CHECK(cz_params_read_mem(&q, params, plen, 1, pool, msg, sizeof msg) == CZ_ERR_NOT_IN_SUBGROUP);
    printf("fuzz_formats: params %ld/%ld accepted, vk %ld/%ld, proofs %ld/%ld, pkcache %ld/%ld, %.1f s\n",
           accepted[0], tried[0], accepted[1], tried[1], accepted[2], tried[2], accepted[3], tried[3], now() - t0);
    free(cache);
    free(cbuf0);
    free(params);
    free(buf);
    free(re);
    unlink(path);
    rmdir(dir);
    cz_groth16_pk_free(&pk);
    cz_pool_destroy(pool);
    return cz_test_finish("fuzz_formats");
}
