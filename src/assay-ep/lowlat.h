/* The state of one --mode low-latency point on one rank (lowlat.c moves
 * the data; verify_ll.c checks the timed calls). */
#ifndef ASSAY_EP_LOWLAT_H
#define ASSAY_EP_LOWLAT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "assay/ep_ll.h"

struct ll_point {
	struct assay_ep_ll ll;
	bool shm;
	int32_t *ids;                /* [T][K] this rank's top-k ids (masked) */
	const float *weights;        /* [T][K] */
	uint16_t *x;                 /* [T][H] this rank's tokens (BF16) */
	unsigned char *msgs;         /* [T][msg_bytes]: dispatch casts into it */
	int32_t *sent;               /* [experts]: messages sent per expert */
	int64_t *pos;                /* [T][K] (mpi): message index in sendbuf */
	int64_t *eoff;               /* [experts] (mpi): first message of each expert */
	struct assay_ep_ll_recv rv;  /* dispatch's packed output */
	const unsigned char **block; /* [le][ep]: received messages per source */
	int32_t *bcount;             /* [le][ep] */
	uint16_t *y;                 /* [le][slots][H]: the expert output (combine input) */
	uint16_t *out;               /* [T][H]: combine output */
	float *acc;
	const uint16_t **rows; /* [T][K]: the rows combine sums */
	/* shm: one window; every rank's raw messages [le][ep][max], counts
	 * [le][ep] and combine buffer [experts][max][H] */
	MPI_Win win;
	unsigned char **raw;
	int32_t **rawcnt;
	uint16_t **comb;
	/* mpi */
	MPI_Datatype msg_t, row_t;
	unsigned char *sendbuf, *recvbuf;
	uint16_t *yback, *back;
	int *ecnt_send, *ecnt_recv, *scount, *sdispl, *rcount, *rdispl;
	int64_t recv_cap, send_cap;
	/* the timed-call checks (verify_ll.c): what the pass before timing
	 * accepted, the hashes of its dispatch and combine outputs */
	int32_t *vcount;      /* [le]: rows received per local expert */
	int64_t *vlayout;     /* [le][ep]: its layout ranges */
	int64_t vsent, vrecv; /* messages this rank sent, received */
	uint64_t vhash[2];    /* dispatch's outputs, combine's output */
};

#endif
