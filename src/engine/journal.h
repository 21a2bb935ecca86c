/* journal.h — the engine's job journal in <state_dir>/jobs (engine-internal).
 *
 * Two files per job, named by its job id (ids are plain: hex, digits, '-'):
 *   <id>.job   the accepted request, written (to .tmp, fsync'ed, renamed)
 *              before SubmitProof returns;
 *   <id>.done  how it ended: state, end time, timings, error, proof (a
 *              rename, no fsync: losing it only means the job runs again).
 * On start the engine reads them back: a job without .done runs again under
 * its id and request_id; an ended one is kept until its retention is over.
 * A job cancelled only because the engine stopped gets no .done, so it runs
 * again after the restart. Prune deletes both files.
 *
 * Layout (little-endian; str = u32 length + bytes; every file ends with the
 * u64 XXH64, seed 0, of all bytes before it):
 *   .job:  "CZJOB\0\0\1", u32 kind, u32 priority, u64 submit time (Unix ms),
 *          str job_id, str request_id, str circuit_id, u32 n, n x (u64 len,
 *          bytes)
 *   .done: "CZDONE\0\1", u32 state, u64 end time (Unix ms), u64 queue_wait,
 *          srs_load, synthesis, prove, total (ms), str error, u64 proof
 *          length, proof bytes */
#ifndef CZ_ENGINE_JOURNAL_H
#define CZ_ENGINE_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include "util/err.h"

typedef struct {
    int kind, prio;
    uint64_t submit_unix_ms;
    char job_id[48], rid[256], circuit_id[128]; /* as CZ_JOB_ID_MAX, RID_MAX, CZ_CIRCUIT_ID_MAX */
    uint32_t n;
    uint8_t **payloads;
    size_t *lens;
} cz_jrec_job;

typedef struct {
    int state;
    uint64_t end_unix_ms, queue_wait_ms, srs_load_ms, synth_ms, prove_ms, total_ms;
    char error[512];
    uint8_t *proof;
    size_t proof_len;
} cz_jrec_done;

uint64_t cz__unix_ms(void);
/* creates <dir>/jobs */
cz_err cz__journal_open(const char *dir, char *msg, size_t msglen);
cz_err cz__journal_write_job(const char *dir, const cz_jrec_job *r, char *msg, size_t msglen);
cz_err cz__journal_write_done(const char *dir, const char *job_id, const cz_jrec_done *d);
void cz__journal_remove(const char *dir, const char *job_id);
/* calls fn for every readable .job (with its .done or NULL); unreadable
 * files are reported through bad(ctx, name, why) and left alone */
void cz__journal_scan(const char *dir, void (*fn)(void *ctx, cz_jrec_job *j, cz_jrec_done *d),
                      void (*bad)(void *ctx, const char *name, const char *why), void *ctx);
void cz__jrec_job_free(cz_jrec_job *j);

#endif
