/* rpc_status_test.c — GetStatus's response as rpc_server.c builds it from an
 * engine snapshot (cz_rpc_status_response), without a daemon: more proving
 * workers than any fixed table holds each get a name of their own, on CUDA
 * and on the CPU; tiers, queues and counters map onto the cuzk.v1 fields;
 * the message packs and unpacks intact. Linked with cuzk_rpc. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server/rpc_server.h"
#include "testutil.h"

#define NW 200

static void fill(cz_engine_status *st, int cuda)
{
    memset(st, 0, sizeof *st);
    st->n_workers = NW;
    st->workers = calloc(NW, sizeof *st->workers);
    st->n_srs = 3;
    st->srs = calloc(3, sizeof *st->srs);
    if (!st->workers || !st->srs) return;
    for (unsigned i = 0; i < NW; i++)
        if (i % 3 == 0) {
            snprintf(st->workers[i].current_job, sizeof st->workers[i].current_job, "job-%u", i);
            st->workers[i].current_kind = CZ_KIND_GROTH16_GENERIC;
        }
    const cz_tier tiers[3] = {CZ_TIER_HOT, CZ_TIER_WARM, CZ_TIER_COLD};
    for (int i = 0; i < 3; i++) {
        snprintf(st->srs[i].circuit_id, sizeof st->srs[i].circuit_id, "k%d", i);
        st->srs[i].tier = tiers[i];
        st->srs[i].loaded = tiers[i] != CZ_TIER_COLD;
        st->srs[i].size_bytes = 1000u * (unsigned)(i + 1);
        st->srs[i].ref_count = (unsigned)i;
    }
    st->backend_kind = cuda ? CZ_BACKEND_CUDA : CZ_BACKEND_CPU;
    snprintf(st->backend, sizeof st->backend, "%s", cuda ? "cuda:0 (Test GPU)" : "cpu");
    st->device = cuda ? 0 : -1;
    st->vram_budget = 1000;
    st->vram_used = 300;
    st->completed = 7;
    st->failed = 2;
    st->uptime_ms = 12345;
    st->mem_used = 11;
    st->mem_budget = 22;
    st->pending_by_kind[cz_kind_index(CZ_KIND_WINNING_POST)] = 4;
    st->running_by_kind[cz_kind_index(CZ_KIND_GROTH16_GENERIC)] = 1;
}

/* every worker's name is distinct and ends with its own index */
static void check_names(Cuzk__V1__GetStatusResponse *r, int cuda, const char *what)
{
    CHECK_MSG(r->n_gpus == NW, "%s: %zu workers", what, r->n_gpus);
    if (r->n_gpus != NW) return;
    int dup = 0, wrong = 0;
    for (size_t i = 0; i < NW; i++) {
        char want[64];
        if (cuda) snprintf(want, sizeof want, "cuda:0 (Test GPU) worker %zu", i);
        else snprintf(want, sizeof want, "cpu-worker-%zu", i);
        if (strcmp(r->gpus[i]->name, want)) wrong++;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(r->gpus[i]->name, r->gpus[j]->name)) dup++;
    }
    CHECK_MSG(dup == 0 && wrong == 0, "%s: %d names shared, %d wrong (worker 70: '%s')", what, dup, wrong,
              r->gpus[70]->name);
    CHECK(r->gpus[3]->ordinal == (cuda ? 0u : 3u));
    CHECK(!strcmp(r->gpus[3]->current_job_id, "job-3") && !strcmp(r->gpus[3]->current_proof_kind, "groth16-generic"));
    CHECK(!strcmp(r->gpus[4]->current_job_id, "") && !strcmp(r->gpus[4]->current_proof_kind, ""));
    CHECK(r->gpus[5]->vram_total_bytes == (cuda ? 1000u : 0u) && r->gpus[5]->vram_free_bytes == (cuda ? 700u : 0u));
}

static void check_rest(Cuzk__V1__GetStatusResponse *r)
{
    CHECK(r->n_loaded_srs == 3);
    if (r->n_loaded_srs == 3) {
        CHECK(r->loaded_srs[0]->tier == CUZK__V1__SRSSTATUS__TIER__HOT);
        CHECK(r->loaded_srs[1]->tier == CUZK__V1__SRSSTATUS__TIER__WARM);
        CHECK(r->loaded_srs[2]->tier == CUZK__V1__SRSSTATUS__TIER__COLD);
        CHECK(!strcmp(r->loaded_srs[2]->circuit_id, "k2") && r->loaded_srs[2]->size_bytes == 3000 &&
              r->loaded_srs[2]->ref_count == 2);
    }
    /* queues: the kinds with work, and the generic one always */
    int winning = 0, generic = 0;
    for (size_t i = 0; i < r->n_queues; i++) {
        if (!strcmp(r->queues[i]->proof_kind, "winning-post")) winning = r->queues[i]->pending == 4;
        if (!strcmp(r->queues[i]->proof_kind, "groth16-generic")) generic = r->queues[i]->in_progress == 1;
    }
    CHECK_MSG(r->n_queues == 2 && winning && generic, "%zu queues", r->n_queues);
    CHECK(r->total_proofs_completed == 7 && r->total_proofs_failed == 2 && r->uptime_seconds == 12);
    CHECK(r->pinned_memory_bytes == 11 && r->pinned_memory_limit_bytes == 22);
}

int main(void)
{
    for (int cuda = 0; cuda < 2; cuda++) {
        const char *what = cuda ? "cuda" : "cpu";
        cz_engine_status st;
        fill(&st, cuda);
        CHECK(st.workers && st.srs);
        if (!st.workers || !st.srs) break;
        Cuzk__V1__GetStatusResponse r;
        void *mem = NULL;
        CHECK(cz_rpc_status_response(&st, &r, &mem) == CZ_OK && mem);
        check_names(&r, cuda, what);
        check_rest(&r);
        /* on the wire and back */
        size_t n = cuzk__v1__get_status_response__get_packed_size(&r);
        uint8_t *buf = malloc(n);
        CHECK(buf && cuzk__v1__get_status_response__pack(&r, buf) == n);
        free(mem);
        Cuzk__V1__GetStatusResponse *u = buf ? cuzk__v1__get_status_response__unpack(NULL, n, buf) : NULL;
        CHECK(u != NULL);
        if (u) {
            check_names(u, cuda, cuda ? "cuda, unpacked" : "cpu, unpacked");
            check_rest(u);
            cuzk__v1__get_status_response__free_unpacked(u, NULL);
        }
        free(buf);
        cz_engine_status_free(&st);
    }
    /* two CUDA devices (ordinals 2 and 5), half the workers each: a
     * worker's ordinal, name and VRAM are its own device's */
    {
        cz_engine_status st;
        fill(&st, 1);
        CHECK(st.workers && st.srs);
        st.n_devs = 2;
        st.devs = calloc(2, sizeof *st.devs);
        CHECK(st.devs != NULL);
        if (st.workers && st.devs) {
            static const int ord[2] = {2, 5};
            for (int d = 0; d < 2; d++) {
                snprintf(st.devs[d].name, sizeof st.devs[d].name, "cuda:%d (Test GPU)", ord[d]);
                st.devs[d].ordinal = ord[d];
                st.devs[d].workers = NW / 2;
                st.devs[d].vram_budget = 1000u * (unsigned)(d + 1);
                st.devs[d].vram_used = 100u * (unsigned)(d + 1);
            }
            for (unsigned i = 0; i < NW; i++) st.workers[i].device = (int)(i / (NW / 2));
            Cuzk__V1__GetStatusResponse r;
            void *mem = NULL;
            CHECK(cz_rpc_status_response(&st, &r, &mem) == CZ_OK && mem && r.n_gpus == NW);
            if (r.n_gpus == NW) {
                int bad = 0;
                for (unsigned i = 0; i < NW; i++) {
                    unsigned d = i / (NW / 2);
                    char want[64];
                    snprintf(want, sizeof want, "cuda:%d (Test GPU) worker %u", ord[d], i);
                    bad += r.gpus[i]->ordinal != (uint32_t)ord[d] || strcmp(r.gpus[i]->name, want) ||
                           r.gpus[i]->vram_total_bytes != 1000u * (d + 1) ||
                           r.gpus[i]->vram_free_bytes != 900u * (d + 1);
                }
                CHECK_MSG(bad == 0, "two devices: %d workers with another device's ordinal, name or VRAM (worker "
                          "150: %u '%s')", bad, r.gpus[150]->ordinal, r.gpus[150]->name);
            }
            free(mem);
        }
        cz_engine_status_free(&st);
    }
    /* no workers, no keys */
    {
        cz_engine_status st;
        memset(&st, 0, sizeof st);
        Cuzk__V1__GetStatusResponse r;
        void *mem = NULL;
        CHECK(cz_rpc_status_response(&st, &r, &mem) == CZ_OK);
        CHECK(r.n_gpus == 0 && r.n_loaded_srs == 0 && r.n_queues == 1);
        free(mem);
    }
    return cz_test_finish("rpc_status_test");
}
