// SPDX-License-Identifier: GPL-2.0-or-later
/* The scenario table: every committed sample and the bench stream. */
#ifndef IWSGEN_SCENARIOS_H
#define IWSGEN_SCENARIOS_H

#include "gen.h"

struct scenario {
	const char *name;
	uint64_t seed;		/* the seed the committed sample was made with */
	int committed;		/* regenerated into samples/generated/ */
	void (*run)(struct gen *g);
	const char *summary;
};

extern const struct scenario scenarios[];
extern const int nscenarios;
const struct scenario *scenario_find(const char *name);

/* scen_basic.c */
void scen_basic_v2_crc(struct gen *g);
void scen_v1_ipv6_vlan(struct gen *g);
void scen_p2p_rtr_send(struct gen *g);
void scen_p2p_rtr_write(struct gen *g);
void scen_p2p_rtr_read(struct gen *g);
void scen_reject_v1(struct gen *g);
void scen_reject_v2(struct gen *g);
void scen_pcapng(struct gen *g);
void scen_usec_pcap(struct gen *g);
/* scen_ops.c */
void scen_atomics(struct gen *g);
void scen_immediate(struct gen *g);
void scen_terminate(struct gen *g);
void scen_multi_qp(struct gen *g);
/* scen_framing.c */
void scen_markers_i2r(struct gen *g);
void scen_markers_r2i(struct gen *g);
void scen_markers_both_wrap(struct gen *g);
void scen_segmentation(struct gen *g);
/* scen_deviant.c */
void scen_markers_le_skipcrc(struct gen *g);
void scen_markers_le_skipcrc_midstream(struct gen *g);
void scen_markers_offset(struct gen *g);
void scen_markers_le(struct gen *g);
/* scen_faults.c */
void scen_retransmit_reorder_dup(struct gen *g);
void scen_midstream(struct gen *g);
void scen_crc_corrupt(struct gen *g);
void scen_gap(struct gen *g);
void scen_snaplen_128(struct gen *g);
void scen_snaplen_96(struct gen *g);
/* scen_loss.c */
void scen_loss_read_request(struct gen *g);
void scen_loss_read_response(struct gen *g);
void scen_loss_ack(struct gen *g);
void scen_reorder(struct gen *g);
void scen_rto(struct gen *g);
void scen_zero_window(struct gen *g);
void scen_fin_outstanding(struct gen *g);
void scen_rst_outstanding(struct gen *g);
/* scen_ulp.c */
void scen_rpc_rdma(struct gen *g);
void scen_rpc_rdma_v4(struct gen *g);

/* scen_smbd.c */
void scen_smb_direct(struct gen *g);
/* scen_nvme.c */
void scen_nvmeof(struct gen *g);
void scen_nvmeof_snaplen_128(struct gen *g);
/* scen_doctor.c: one scenario per doctor rule (scen_doctor.h), all of them */
void scen_doctor(struct gen *g);
void scen_doctor_all(struct gen *g);
/* scen_fidelity.c */
void scen_midstream_read_storm(struct gen *g);
void scen_sliced_siw_midstream(struct gen *g);
void scen_sliced_gso_tso(struct gen *g);
void scen_read_req_le(struct gen *g);
/* scen_field.c */
void scen_cut_read_lat(struct gen *g);
void scen_ring_first_file(struct gen *g);

#endif
