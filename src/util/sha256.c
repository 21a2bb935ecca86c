/* sha256.c — SHA-256: portable compression, the SHA-NI compression, and the
 * streaming interface (contract in sha256.h).
 *
 * SHA-NI keeps the state as two vectors, ABEF and CDGH (the order
 * SHA256RNDS2 wants); each instruction does two rounds, so a group of four
 * rounds is two RNDS2 with the message-plus-constant vector and its upper
 * half. The schedule for words 16..63 is MSG1, an add of W[t-7..t-4]
 * (ALIGNR of the two previous groups) and MSG2. */
#include "util/sha256.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

const uint32_t cz_sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

const uint32_t cz_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

void cz_sha256_compress_portable(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
    for (; nblocks--; p += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + cz_sha256_k[i] + w[i];
            uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        st[0] += a; st[1] += b; st[2] += c; st[3] += d;
        st[4] += e; st[5] += f; st[6] += g; st[7] += h;
    }
}

#if HAVE_X86
__attribute__((target("sha,sse4.1")))
static void compress_shani(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i t = _mm_loadu_si128((const __m128i *)&st[0]);   /* A B C D */
    __m128i s1 = _mm_loadu_si128((const __m128i *)&st[4]);  /* E F G H */
    t = _mm_shuffle_epi32(t, 0xb1);                          /* B A D C */
    s1 = _mm_shuffle_epi32(s1, 0x1b);                        /* H G F E */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);                  /* ABEF */
    s1 = _mm_blend_epi16(s1, t, 0xf0);                       /* CDGH */
    for (; nblocks--; p += 64) {
        __m128i save0 = s0, save1 = s1, w[4];
        for (int g = 0; g < 16; g++) {
            __m128i m;
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
            } else {
                __m128i x = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
                x = _mm_add_epi32(x, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
                w[g & 3] = _mm_sha256msg2_epu32(x, w[(g + 3) & 3]);
            }
            m = _mm_add_epi32(w[g & 3], _mm_loadu_si128((const __m128i *)&cz_sha256_k[4 * g]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, m);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0e));
        }
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }
    t = _mm_shuffle_epi32(s0, 0x1b);                         /* FEBA -> ABEF lanes */
    s1 = _mm_shuffle_epi32(s1, 0xb1);
    s0 = _mm_blend_epi16(t, s1, 0xf0);                       /* A B C D */
    s1 = _mm_alignr_epi8(s1, t, 8);                          /* E F G H */
    _mm_storeu_si128((__m128i *)&st[0], s0);
    _mm_storeu_si128((__m128i *)&st[4], s1);
}
#endif

static int use_shani = -1;

static int detect(void)
{
    int ok = 0;
#if HAVE_X86
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 29) & 1)) {
        unsigned a1, b1, c1, d1;
        if (__get_cpuid(1, &a1, &b1, &c1, &d1) && ((c1 >> 19) & 1) && ((c1 >> 9) & 1)) ok = 1;
    }
#endif
    const char *no = getenv("CUZK_NO_ASM");
    if (no && *no && *no != '0') ok = 0;
    use_shani = ok;
    return ok;
}

int cz_sha256_uses_shani(void) { return use_shani >= 0 ? use_shani : detect(); }

#if defined(__GNUC__) || defined(__clang__)
/* detected before main, while there is one thread, so that hashing threads
 * only read use_shani (the lazy path above is for other compilers) */
__attribute__((constructor)) static void detect_at_start(void) { detect(); }
#endif

void cz_sha256_force_portable(int on)
{
    if (on) use_shani = 0; else detect();
}

void cz_sha256_compress(uint32_t st[8], const uint8_t *blocks, size_t nblocks)
{
#if HAVE_X86
    if (cz_sha256_uses_shani()) { compress_shani(st, blocks, nblocks); return; }
#endif
    cz_sha256_compress_portable(st, blocks, nblocks);
}

void cz_sha256_init(cz_sha256_ctx *c)
{
    memcpy(c->h, cz_sha256_iv, sizeof c->h);
    c->len = 0;
    c->nbuf = 0;
}

void cz_sha256_update(cz_sha256_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    c->len += len;
    if (c->nbuf) {
        size_t take = 64 - c->nbuf < len ? 64 - c->nbuf : len;
        memcpy(c->buf + c->nbuf, p, take);
        c->nbuf += (uint32_t)take; p += take; len -= take;
        if (c->nbuf < 64) return;
        cz_sha256_compress(c->h, c->buf, 1);
        c->nbuf = 0;
    }
    if (len >= 64) {
        cz_sha256_compress(c->h, p, len / 64);
        p += len & ~(size_t)63;
        len &= 63;
    }
    memcpy(c->buf, p, len);
    c->nbuf = (uint32_t)len;
}

void cz_sha256_final(cz_sha256_ctx *c, uint8_t out[32])
{
    uint64_t bits = c->len * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = (c->nbuf < 56 ? 56 : 120) - c->nbuf;
    for (int i = 0; i < 8; i++) pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    uint64_t keep = c->len;
    cz_sha256_update(c, pad, padlen + 8);
    c->len = keep;
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24); out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8); out[4 * i + 3] = (uint8_t)c->h[i];
    }
}

void cz_sha256(uint8_t out[32], const void *data, size_t len)
{
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    cz_sha256_update(&c, data, len);
    cz_sha256_final(&c, out);
}
