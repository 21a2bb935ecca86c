/* fuzz_decode.c — cz_g1_decode / cz_g2_decode on at least 10^6 hostile
 * inputs, built with ASan + UBSan: random bytes of every length 0..200,
 * valid encodings (subgroup points, points outside the subgroup, infinity)
 * with bits flipped, flags rewritten, a coordinate replaced by p, p + 1,
 * p - 1 or all ones, and truncated or extended copies.
 *
 * Every accepted input must decode to a point on the curve (and in the
 * subgroup when the check was asked for, confirmed by the definition
 * [r]P == O on a sample) that re-encodes to exactly the input bytes; every
 * rejection must be one of the documented codes. Cheap rejections are most
 * of the stream; the mix keeps inputs that reach the square root and the
 * subgroup check to a few percent so the run stays under a minute on one
 * core. The run is a fixed number of inputs (cz_fuzz_count) from the
 * printed seed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "ec/ec.h"

#define NSEED 8

static const uint8_t P_BE[48] = {
    0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6,
    0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf,
    0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe,
    0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};

typedef struct { uint8_t b[192]; size_t len; } enc;

static enc seeds[2][4 * NSEED + 2]; /* [group][...] */
static int nseeds[2];
static long accepted[2], expensive, slow_checked;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void add_seed(int g, const uint8_t *b, size_t len)
{
    enc *e = &seeds[g][nseeds[g]++];
    memcpy(e->b, b, len);
    e->len = len;
}

static void make_seeds(cz_rng *rng)
{
    uint8_t buf[192];
    for (int i = 0; i < NSEED; i++) {
        uint64_t k[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng) >> 2};
        cz_g1_jac j;
        cz_g1_aff a;
        cz_g1_generator_jac(&j);
        cz_g1_mul(&j, &j, k, 255);
        cz_g1_to_aff(&a, &j);
        cz_g1_compress(buf, &a);
        add_seed(0, buf, 48);
        cz_g1_serialize(buf, &a);
        add_seed(0, buf, 96);
        /* off the subgroup: random x with a root */
        for (;;) {
            cz_fp x, t, b;
            cz_fp_random(&x, rng);
            cz_fp_sqr(&t, &x);
            cz_fp_mul(&t, &t, &x);
            cz_fp_from_u64(&b, 4);
            cz_fp_add(&t, &t, &b);
            if (cz_fp_sqrt(&a.y, &t)) { a.x = x; break; }
        }
        cz_g1_compress(buf, &a);
        add_seed(0, buf, 48);
        cz_g1_serialize(buf, &a);
        add_seed(0, buf, 96);

        cz_g2_jac j2;
        cz_g2_aff a2;
        cz_g2_generator_jac(&j2);
        cz_g2_mul(&j2, &j2, k, 255);
        cz_g2_to_aff(&a2, &j2);
        cz_g2_compress(buf, &a2);
        add_seed(1, buf, 96);
        cz_g2_serialize(buf, &a2);
        add_seed(1, buf, 192);
        for (;;) {
            cz_fp2 x, t, b;
            cz_fp2_random(&x, rng);
            cz_fp2_sqr(&t, &x);
            cz_fp2_mul(&t, &t, &x);
            cz_fp_from_u64(&b.c0, 4);
            b.c1 = b.c0;
            cz_fp2_add(&t, &t, &b);
            if (cz_fp2_sqrt(&a2.y, &t)) { a2.x = x; break; }
        }
        cz_g2_compress(buf, &a2);
        add_seed(1, buf, 96);
        cz_g2_serialize(buf, &a2);
        add_seed(1, buf, 192);
    }
    memset(buf, 0, sizeof buf);
    buf[0] = 0xc0;
    add_seed(0, buf, 48);
    add_seed(1, buf, 96);
    buf[0] = 0x40;
    add_seed(0, buf, 96);
    add_seed(1, buf, 192);
}

static int known_error(cz_err e)
{
    return e == CZ_ERR_LENGTH || e == CZ_ERR_FLAGS || e == CZ_ERR_NONCANONICAL ||
           e == CZ_ERR_NO_SQRT || e == CZ_ERR_NOT_ON_CURVE || e == CZ_ERR_NOT_IN_SUBGROUP;
}

/* decode one input as group g, check whatever came back */
static void run_one(int g, const uint8_t *in, size_t len, int check_sub, cz_rng *rng)
{
    uint8_t re[192];
    cz_err e;
    if (g == 0) {
        cz_g1_aff a;
        e = cz_g1_decode(&a, in, len, check_sub);
        if (e == CZ_OK) {
            accepted[0]++;
            CHECK(cz_g1_aff_on_curve(&a));
            if (check_sub) CHECK(cz_g1_aff_in_subgroup(&a));
            if (check_sub && (cz_rng_u64(rng) & 15) == 0) {
                cz_g1_jac j;
                cz_g1_from_aff(&j, &a);
                CHECK(cz_g1_in_subgroup_slow(&j));
                slow_checked++;
            }
            if (len == 48) cz_g1_compress(re, &a);
            else cz_g1_serialize(re, &a);
            CHECK_MSG(!memcmp(re, in, len), "G1 re-encoding differs (len %zu)", len);
        }
    } else {
        cz_g2_aff a;
        e = cz_g2_decode(&a, in, len, check_sub);
        if (e == CZ_OK) {
            accepted[1]++;
            CHECK(cz_g2_aff_on_curve(&a));
            if (check_sub) CHECK(cz_g2_aff_in_subgroup(&a));
            if (check_sub && (cz_rng_u64(rng) & 15) == 0) {
                cz_g2_jac j;
                cz_g2_from_aff(&j, &a);
                CHECK(cz_g2_in_subgroup_slow(&j));
                slow_checked++;
            }
            if (len == 96) cz_g2_compress(re, &a);
            else cz_g2_serialize(re, &a);
            CHECK_MSG(!memcmp(re, in, len), "G2 re-encoding differs (len %zu)", len);
        }
    }
    if (e != CZ_OK) CHECK_MSG(known_error(e), "unknown error code %d", e);
}

int main(void)
{
    cz_rng rng;
    cz_rng_seed(&rng, cz_test_seed("fuzz_decode", 11));
    make_seeds(&rng);
    const long target = cz_fuzz_count("fuzz_decode", "inputs", 1050000);
    double t0 = now();
    long count = 0;
    uint8_t buf[256];
    while (count < target) {
        for (int batch = 0; batch < 1000 && count < target; batch++, count++) {
            uint64_t r = cz_rng_u64(&rng);
            int g = (int)(r & 1);
            unsigned kind = (unsigned)((r >> 1) % 1000);
            int check_sub = ((r >> 12) & 7) != 0;
            const enc *s = &seeds[g][(r >> 16) % (uint64_t)nseeds[g]];
            size_t len = s->len;
            memcpy(buf, s->b, len);
            if (kind < 300) {
                /* random bytes, random length 0..200 */
                len = (size_t)((r >> 24) % 201);
                cz_rng_bytes(&rng, buf, len);
            } else if (kind < 500) {
                /* random bytes of a valid length, with flags that are
                 * mostly rejected: infinity or a compression mismatch */
                len = g ? ((r >> 24) & 1 ? 96 : 192) : ((r >> 24) & 1 ? 48 : 96);
                cz_rng_bytes(&rng, buf, len);
                if (kind < 490) buf[0] |= 0x40;
            } else if (kind < 700) {
                /* truncated / extended copies of a valid encoding */
                size_t nl = (size_t)((r >> 24) % 201);
                if (nl == len) nl = (nl + 1) % 201;
                if (nl > len) cz_rng_bytes(&rng, buf + len, nl - len);
                len = nl;
            } else if (kind < 850) {
                /* flags rewritten to a different value */
                uint8_t f = (uint8_t)(((r >> 24) & 7) << 5);
                if (f == (buf[0] & 0xe0)) f ^= 0x40;
                buf[0] = (uint8_t)((buf[0] & 0x1f) | f);
            } else if (kind < 930) {
                /* a coordinate replaced by p, p + 1, p - 1 or all ones */
                size_t ncoord = len / 48, c = (size_t)((r >> 24) % ncoord);
                uint8_t f = buf[0] & 0xe0;
                uint8_t *x = buf + 48 * c;
                unsigned what = (unsigned)((r >> 32) & 3);
                if (what == 2 && ((r >> 34) & 7)) what = 0; /* p - 1 is rare */
                memcpy(x, P_BE, 48);
                if (what == 1) x[47] += 1;           /* p + 1 */
                else if (what == 2) x[47] -= 1;      /* p - 1: canonical */
                else if (what == 3) memset(x, 0xff, 48);
                if (c == 0) x[0] = (uint8_t)((x[0] & 0x1f) | f);
                if (what == 2) expensive++;
            } else if (kind < 990) {
                /* valid encoding with 1..3 bits flipped */
                int nf = 1 + (int)((r >> 24) % 3);
                for (int i = 0; i < nf; i++) {
                    uint64_t q = cz_rng_u64(&rng);
                    size_t pos = (size_t)(q % len);
                    buf[pos] ^= (uint8_t)(1u << ((q >> 32) & 7));
                }
                expensive++;
            } else {
                /* unmodified seed: the full path, subgroup check included */
                expensive++;
            }
            run_one(g, buf, len, check_sub, &rng);
        }
    }
    double dt = now() - t0;
    printf("fuzz_decode: %ld inputs in %.1f s (%ld on the expensive paths), accepted G1 %ld, G2 %ld, "
           "%ld confirmed by [r]P == O\n", count, dt, expensive, accepted[0], accepted[1], slow_checked);
    CHECK_MSG(count == target, "only %ld of %ld inputs ran", count, target);
    CHECK(accepted[0] > 0 && accepted[1] > 0);
    return cz_test_finish("fuzz_decode");
}
