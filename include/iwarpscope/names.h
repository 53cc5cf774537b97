// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.h - the names of every code point iwarpscope shows, in one place.
 *
 * Each table is an X-macro list X(value, "name") so a front end can expand it
 * into its own table type (the plugin builds Wireshark value_strings from
 * them); the core also exposes lookup functions for the CLI.
 */
#ifndef IWARPSCOPE_NAMES_H
#define IWARPSCOPE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RDMAP opcodes (RFC 5040 §4.2, RFC 7306 §4, §5) */
#define IWS_RDMAP_OPCODE_NAMES(X) \
	X(0x0, "RDMA Write") \
	X(0x1, "RDMA Read Request") \
	X(0x2, "RDMA Read Response") \
	X(0x3, "Send") \
	X(0x4, "Send with Invalidate") \
	X(0x5, "Send with Solicited Event") \
	X(0x6, "Send with Solicited Event and Invalidate") \
	X(0x7, "Terminate") \
	X(0x8, "Immediate Data") \
	X(0x9, "Immediate Data with Solicited Event") \
	X(0xA, "Atomic Request") \
	X(0xB, "Atomic Response")

/* DDP untagged queue numbers (RFC 5040 §5.1, RFC 7306 §5.1) */
#define IWS_DDP_QN_NAMES(X) \
	X(0, "Send queue") \
	X(1, "Read/Atomic Request queue") \
	X(2, "Terminate queue") \
	X(3, "Atomic Response queue")

/* Terminate: layer (RFC 5040 §4.8) */
#define IWS_TERM_LAYER_NAMES(X) \
	X(0x0, "RDMAP") \
	X(0x1, "DDP") \
	X(0x2, "LLP (MPA)")

/* Terminate: error types per layer (RFC 5040 §7.2, RFC 5041 §7.2, RFC 5044 §8) */
#define IWS_TERM_RDMAP_ETYPE_NAMES(X) \
	X(0x0, "Local Catastrophic Error") \
	X(0x1, "Remote Protection Error") \
	X(0x2, "Remote Operation Error")

#define IWS_TERM_DDP_ETYPE_NAMES(X) \
	X(0x0, "Local Catastrophic Error") \
	X(0x1, "Tagged Buffer Error") \
	X(0x2, "Untagged Buffer Error") \
	X(0x3, "Reserved for RDMA")

#define IWS_TERM_LLP_ETYPE_NAMES(X) \
	X(0x0, "MPA Error")

/* Terminate: error codes */
#define IWS_TERM_RDMAP_CODE_NAMES(X) \
	X(0x00, "Invalid STag") \
	X(0x01, "Base or bounds violation") \
	X(0x02, "Access rights violation") \
	X(0x03, "STag not associated with RDMAP Stream") \
	X(0x04, "TO wrap") \
	X(0x05, "Invalid RDMAP version") \
	X(0x06, "Unexpected OpCode") \
	X(0x07, "Catastrophic error, localized to RDMAP Stream") \
	X(0x08, "Catastrophic error, global") \
	X(0x09, "STag cannot be invalidated") \
	X(0xFF, "Unspecified error")

#define IWS_TERM_DDP_TAGGED_CODE_NAMES(X) \
	X(0x00, "Invalid STag") \
	X(0x01, "Base or bounds violation") \
	X(0x02, "STag not associated with DDP Stream") \
	X(0x03, "TO wrap") \
	X(0x04, "Invalid DDP version")

#define IWS_TERM_DDP_UNTAGGED_CODE_NAMES(X) \
	X(0x01, "Invalid QN") \
	X(0x02, "Invalid MSN - no buffer available") \
	X(0x03, "Invalid MSN - MSN range is not valid") \
	X(0x04, "Invalid MO") \
	X(0x05, "DDP Message too long for available buffer") \
	X(0x06, "Invalid DDP version")

#define IWS_TERM_LLP_CODE_NAMES(X) \
	X(0x01, "TCP connection closed, terminated or lost") \
	X(0x02, "MPA CRC error") \
	X(0x03, "MPA Marker and ULPDU Length mismatch") \
	X(0x04, "Invalid MPA Request or Reply frame") \
	X(0x05, "Local catastrophic error") \
	X(0x06, "Insufficient IRD resources") \
	X(0x07, "No matching RTR option")

/* Atomic operation codes (RFC 7306 §5.2.1) */
#define IWS_AOPCODE_NAMES(X) \
	X(0x0, "FetchAdd") \
	X(0x1, "Swap") \
	X(0x2, "CmpSwap")

/* MPA frame types and RTR types */
#define IWS_MPA_FRAME_NAMES(X) \
	X(1, "MPA Request") \
	X(2, "MPA Reply")

#define IWS_RTR_NAMES(X) \
	X(0x0, "none") \
	X(0x1, "zero-length Send") \
	X(0x2, "zero-length RDMA Write") \
	X(0x4, "zero-length RDMA Read")

/* RDMA operation types (enum iws_op_type, qp.h): the name every output
 * uses (the CLI's text, JSON and CSV, the plugin's fields) and a title. */
#define IWS_OP_TYPE_NAMES(X) \
	X(0, "write", "RDMA Write") \
	X(1, "read", "RDMA Read") \
	X(2, "send", "Send") \
	X(3, "send_inv", "Send with Invalidate") \
	X(4, "send_se", "Send with SE") \
	X(5, "send_se_inv", "Send with SE and Invalidate") \
	X(6, "immediate", "Immediate Data") \
	X(7, "immediate_se", "Immediate Data with SE") \
	X(8, "atomic_fetch_add", "Atomic FetchAdd") \
	X(9, "atomic_cmp_swap", "Atomic CmpSwap") \
	X(10, "atomic_swap", "Atomic Swap") \
	X(11, "terminate", "Terminate")

/* Why an operation is not complete, or what is odd about it (IWS_OPF_*, qp.h). */
#define IWS_OP_FLAG_NAMES(X) \
	X(0x0001, "gap") \
	X(0x0002, "started_before") \
	X(0x0004, "unfinished") \
	X(0x0008, "truncated") \
	X(0x0010, "evicted") \
	X(0x0020, "msn_gap") \
	X(0x0040, "offset_gap") \
	X(0x0080, "ird_exceeded") \
	X(0x0100, "aborted") \
	X(0x0200, "after_close") \
	X(0x0400, "request_missing") \
	X(0x0800, "response_unknown") \
	X(0x1000, "sliced")

/* TCP ports iWARP connections are made to: who listens on one was
 * connected to (stream.h iws_stream_opts.port). */
#define IWS_LISTEN_PORTS(X) \
	X(18515, "perftest") \
	X(7174, "rping") \
	X(4420, "NVMe over Fabrics") \
	X(20049, "NFS over RDMA") \
	X(2049, "NFS") \
	X(445, "SMB") \
	X(5445, "SMB Direct") \
	X(3260, "iSER")

/* How the initiator was decided (enum iws_init_evidence, stream.h). */
#define IWS_INIT_EVIDENCE_NAMES(X) \
	X(0, "mpa") \
	X(1, "syn") \
	X(2, "listen_port") \
	X(3, "ephemeral_port") \
	X(4, "first_segment") \
	X(5, "given")

/* How a response was paired with its request (enum iws_pairing, qp.h). */
#define IWS_PAIRING_NAMES(X) \
	X(1, "order") \
	X(2, "key") \
	X(3, "frame") \
	X(4, "close") \
	X(5, "before_capture")

/* How a sender breaks RFC 5044's marker rules (IWS_MARKER_DEV_*, stream.h):
 * a contract name and words for a finding. */
#define IWS_MARKER_DEV_NAMES(X) \
	X(0x1, "fpduptr_le", "FPDUPTR appears little-endian") \
	X(0x2, "skip_crc", "markers follow a non-RFC 5044 grid that leaves CRC octets out") \
	X(0x4, "offset", "markers follow a non-RFC 5044 grid offset from SeqStart")

/* How a sender breaks RFC 5040's formats (IWS_RDMAP_DEV_*, qp.h). */
#define IWS_RDMAP_DEV_NAMES(X) \
	X(0x1, "read_req_le", "Read Request fields appear little-endian (matched byte-swapped)")

/* NVMe command flags (IWS_NVMEF_*, nvme.h) as the CLI's `nvme` output names them. */
#define IWS_NVME_FLAG_NAMES(X) \
	X(0x0001, "unfinished") \
	X(0x0002, "aborted") \
	X(0x0004, "gap") \
	X(0x0008, "evicted") \
	X(0x0010, "replaced") \
	X(0x0020, "no_command") \
	X(0x0040, "cid_reuse") \
	X(0x0080, "sqid_mismatch") \
	X(0x0100, "inval_mismatch") \
	X(0x0200, "data_mismatch") \
	X(0x0400, "queue_unknown") \
	X(0x0800, "data_truncated") \
	X(0x1000, "sqe_truncated") \
	X(0x2000, "awaits_event") \
	X(0x4000, "completion_cut")

/* RTR message types as the CLI's JSON names them (IWS_RTR_*, mpa.h). */
#define IWS_RTR_SHORT_NAMES(X) \
	X(0x1, "send") \
	X(0x2, "write") \
	X(0x4, "read")
/*
 * NVMe over Fabrics on RDMA. Sources: NVM Express Base
 * Specification 2.0 (Admin Command Set, Status Field and Status Code
 * definitions, SGL descriptors), NVM Command Set Specification 1.0 (I/O
 * opcodes, NVM command-specific status), NVM Express over Fabrics 1.1
 * (Fabrics command types and their status codes).
 *
 * Opcode tables have three columns X(value, key, title): the key is the
 * short name of the CLI contract ("read", "get_log_page"), the title the
 * name people read. A value_string uses (value, title).
 */

/* Admin Command Set opcodes (NVMe Base 2.0, "Opcodes for Admin Commands") */
#define IWS_NVME_ADMIN_OPCODES(X) \
	X(0x00, "delete_io_sq", "Delete I/O Submission Queue") \
	X(0x01, "create_io_sq", "Create I/O Submission Queue") \
	X(0x02, "get_log_page", "Get Log Page") \
	X(0x04, "delete_io_cq", "Delete I/O Completion Queue") \
	X(0x05, "create_io_cq", "Create I/O Completion Queue") \
	X(0x06, "identify", "Identify") \
	X(0x08, "abort", "Abort") \
	X(0x09, "set_features", "Set Features") \
	X(0x0A, "get_features", "Get Features") \
	X(0x0C, "async_event", "Asynchronous Event Request") \
	X(0x0D, "ns_management", "Namespace Management") \
	X(0x10, "fw_commit", "Firmware Commit") \
	X(0x11, "fw_download", "Firmware Image Download") \
	X(0x14, "self_test", "Device Self-test") \
	X(0x15, "ns_attachment", "Namespace Attachment") \
	X(0x18, "keep_alive", "Keep Alive") \
	X(0x19, "directive_send", "Directive Send") \
	X(0x1A, "directive_recv", "Directive Receive") \
	X(0x1C, "virt_management", "Virtualization Management") \
	X(0x1D, "mi_send", "NVMe-MI Send") \
	X(0x1E, "mi_recv", "NVMe-MI Receive") \
	X(0x7C, "doorbell_buffer_config", "Doorbell Buffer Config") \
	X(0x7F, "fabrics", "Fabrics Command") \
	X(0x80, "format_nvm", "Format NVM") \
	X(0x81, "security_send", "Security Send") \
	X(0x82, "security_recv", "Security Receive") \
	X(0x84, "sanitize", "Sanitize") \
	X(0x86, "get_lba_status", "Get LBA Status")

/* NVM Command Set I/O opcodes (NVM Command Set 1.0, "Opcodes for NVM Commands") */
#define IWS_NVME_IO_OPCODES(X) \
	X(0x00, "flush", "Flush") \
	X(0x01, "write", "Write") \
	X(0x02, "read", "Read") \
	X(0x04, "write_uncorrectable", "Write Uncorrectable") \
	X(0x05, "compare", "Compare") \
	X(0x08, "write_zeroes", "Write Zeroes") \
	X(0x09, "dsm", "Dataset Management") \
	X(0x0C, "verify", "Verify") \
	X(0x0D, "resv_register", "Reservation Register") \
	X(0x0E, "resv_report", "Reservation Report") \
	X(0x11, "resv_acquire", "Reservation Acquire") \
	X(0x15, "resv_release", "Reservation Release") \
	X(0x19, "copy", "Copy") \
	X(0x7F, "fabrics", "Fabrics Command")

/* Fabrics command types, FCTYPE (NVMe-oF 1.1 "Fabrics Command Set"; Disconnect: NVMe Base 2.0) */
#define IWS_NVME_FCTYPES(X) \
	X(0x00, "property_set", "Property Set") \
	X(0x01, "connect", "Connect") \
	X(0x04, "property_get", "Property Get") \
	X(0x05, "auth_send", "Authentication Send") \
	X(0x06, "auth_recv", "Authentication Receive") \
	X(0x08, "disconnect", "Disconnect")

/* Status Code Type, CQE status bits 11:9 of the 15-bit field (NVMe Base 2.0 "Status Code Type Values") */
#define IWS_NVME_SCT_NAMES(X) \
	X(0x0, "Generic Command Status") \
	X(0x1, "Command Specific Status") \
	X(0x2, "Media and Data Integrity Errors") \
	X(0x3, "Path Related Status") \
	X(0x7, "Vendor Specific")

/* SCT 0 (NVMe Base 2.0 "Generic Command Status Values"; 80h-84h NVM Command Set) */
#define IWS_NVME_SC_GENERIC_NAMES(X) \
	X(0x00, "Successful Completion") \
	X(0x01, "Invalid Command Opcode") \
	X(0x02, "Invalid Field in Command") \
	X(0x03, "Command ID Conflict") \
	X(0x04, "Data Transfer Error") \
	X(0x05, "Commands Aborted due to Power Loss Notification") \
	X(0x06, "Internal Error") \
	X(0x07, "Command Abort Requested") \
	X(0x08, "Command Aborted due to SQ Deletion") \
	X(0x09, "Command Aborted due to Failed Fused Command") \
	X(0x0A, "Command Aborted due to Missing Fused Command") \
	X(0x0B, "Invalid Namespace or Format") \
	X(0x0C, "Command Sequence Error") \
	X(0x0D, "Invalid SGL Segment Descriptor") \
	X(0x0E, "Invalid Number of SGL Descriptors") \
	X(0x0F, "Data SGL Length Invalid") \
	X(0x10, "Metadata SGL Length Invalid") \
	X(0x11, "SGL Descriptor Type Invalid") \
	X(0x12, "Invalid Use of Controller Memory Buffer") \
	X(0x13, "PRP Offset Invalid") \
	X(0x14, "Atomic Write Unit Exceeded") \
	X(0x15, "Operation Denied") \
	X(0x16, "SGL Offset Invalid") \
	X(0x18, "Host Identifier Inconsistent Format") \
	X(0x19, "Keep Alive Timer Expired") \
	X(0x1A, "Keep Alive Timeout Invalid") \
	X(0x1B, "Command Aborted due to Preempt and Abort") \
	X(0x1C, "Sanitize Failed") \
	X(0x1D, "Sanitize In Progress") \
	X(0x1E, "SGL Data Block Granularity Invalid") \
	X(0x1F, "Command Not Supported for Queue in CMB") \
	X(0x20, "Namespace is Write Protected") \
	X(0x21, "Command Interrupted") \
	X(0x22, "Transient Transport Error") \
	X(0x80, "LBA Out of Range") \
	X(0x81, "Capacity Exceeded") \
	X(0x82, "Namespace Not Ready") \
	X(0x83, "Reservation Conflict") \
	X(0x84, "Format In Progress")

/* SCT 1, 00h-7Fh: admin commands (NVMe Base 2.0 "Command Specific Status Values") */
#define IWS_NVME_SC_CMD_SPECIFIC_NAMES(X) \
	X(0x00, "Completion Queue Invalid") \
	X(0x01, "Invalid Queue Identifier") \
	X(0x02, "Invalid Queue Size") \
	X(0x03, "Abort Command Limit Exceeded") \
	X(0x05, "Asynchronous Event Request Limit Exceeded") \
	X(0x06, "Invalid Firmware Slot") \
	X(0x07, "Invalid Firmware Image") \
	X(0x08, "Invalid Interrupt Vector") \
	X(0x09, "Invalid Log Page") \
	X(0x0A, "Invalid Format") \
	X(0x0B, "Firmware Activation Requires Conventional Reset") \
	X(0x0C, "Invalid Queue Deletion") \
	X(0x0D, "Feature Identifier Not Saveable") \
	X(0x0E, "Feature Not Changeable") \
	X(0x0F, "Feature Not Namespace Specific") \
	X(0x10, "Firmware Activation Requires NVM Subsystem Reset") \
	X(0x11, "Firmware Activation Requires Controller Level Reset") \
	X(0x12, "Firmware Activation Requires Maximum Time Violation") \
	X(0x13, "Firmware Activation Prohibited") \
	X(0x14, "Overlapping Range") \
	X(0x15, "Namespace Insufficient Capacity") \
	X(0x16, "Namespace Identifier Unavailable") \
	X(0x18, "Namespace Already Attached") \
	X(0x19, "Namespace Is Private") \
	X(0x1A, "Namespace Not Attached") \
	X(0x1B, "Thin Provisioning Not Supported") \
	X(0x1C, "Controller List Invalid") \
	X(0x1D, "Device Self-test In Progress") \
	X(0x1E, "Boot Partition Write Prohibited") \
	X(0x1F, "Invalid Controller Identifier") \
	X(0x20, "Invalid Secondary Controller State") \
	X(0x21, "Invalid Number of Controller Resources") \
	X(0x22, "Invalid Resource Identifier") \
	X(0x23, "Sanitize Prohibited While Persistent Memory Region is Enabled") \
	X(0x24, "ANA Group Identifier Invalid") \
	X(0x25, "ANA Attach Failed")

/* SCT 1, 80h-BFh of NVM I/O commands (NVM Command Set 1.0) */
#define IWS_NVME_SC_NVM_NAMES(X) \
	X(0x80, "Conflicting Attributes") \
	X(0x81, "Invalid Protection Information") \
	X(0x82, "Attempted Write to Read Only Range") \
	X(0x83, "Command Size Limit Exceeded")

/* SCT 1 of Fabrics commands (NVMe-oF 1.1, Connect and Authentication status values) */
#define IWS_NVME_SC_FABRICS_NAMES(X) \
	X(0x80, "Connect Incompatible Format") \
	X(0x81, "Connect Controller Busy") \
	X(0x82, "Connect Invalid Parameters") \
	X(0x83, "Connect Restart Discovery") \
	X(0x84, "Connect Invalid Host") \
	X(0x85, "Invalid Queue Type") \
	X(0x90, "Discover Restart") \
	X(0x91, "Authentication Required")

/* SCT 2 (NVMe Base 2.0 "Media and Data Integrity Error Values") */
#define IWS_NVME_SC_MEDIA_NAMES(X) \
	X(0x80, "Write Fault") \
	X(0x81, "Unrecovered Read Error") \
	X(0x82, "End-to-end Guard Check Error") \
	X(0x83, "End-to-end Application Tag Check Error") \
	X(0x84, "End-to-end Reference Tag Check Error") \
	X(0x85, "Compare Failure") \
	X(0x86, "Access Denied") \
	X(0x87, "Deallocated or Unwritten Logical Block")

/* SCT 3 (NVMe Base 2.0 "Path Related Status Values") */
#define IWS_NVME_SC_PATH_NAMES(X) \
	X(0x00, "Internal Path Error") \
	X(0x01, "Asymmetric Access Persistent Loss") \
	X(0x02, "Asymmetric Access Inaccessible") \
	X(0x03, "Asymmetric Access Transition") \
	X(0x60, "Controller Pathing Error") \
	X(0x70, "Host Pathing Error") \
	X(0x71, "Command Aborted By Host")

/* SGL descriptor type, upper nibble of the SGL Identifier (NVMe Base 2.0 "SGL Descriptor Type") */
#define IWS_NVME_SGL_TYPE_NAMES(X) \
	X(0x0, "Data Block") \
	X(0x1, "Bit Bucket") \
	X(0x2, "Segment") \
	X(0x3, "Last Segment") \
	X(0x4, "Keyed Data Block") \
	X(0x5, "Transport Data Block") \
	X(0xF, "Vendor Specific")

/* SGL descriptor sub type, lower nibble (NVMe Base 2.0 "SGL Descriptor Sub Type";
 * Fh "Invalidate Key" is the RDMA transport's for Keyed SGL Data Block) */
#define IWS_NVME_SGL_SUBTYPE_NAMES(X) \
	X(0x0, "Address") \
	X(0x1, "Offset") \
	X(0xA, "Transport Specific") \
	X(0xF, "Invalidate Key")

/* Identify CNS values (NVMe Base 2.0, Identify command) */
#define IWS_NVME_CNS_NAMES(X) \
	X(0x00, "Identify Namespace") \
	X(0x01, "Identify Controller") \
	X(0x02, "Active Namespace ID list") \
	X(0x03, "Namespace Identification Descriptor list") \
	X(0x04, "NVM Set List") \
	X(0x05, "I/O Command Set specific Identify Namespace") \
	X(0x06, "I/O Command Set specific Identify Controller") \
	X(0x07, "I/O Command Set specific Active Namespace ID list") \
	X(0x10, "Allocated Namespace ID list") \
	X(0x11, "Identify Namespace (allocated)") \
	X(0x12, "Namespace Attached Controller list") \
	X(0x13, "Controller list") \
	X(0x14, "Primary Controller Capabilities") \
	X(0x15, "Secondary Controller list") \
	X(0x16, "Namespace Granularity List") \
	X(0x17, "UUID List") \
	X(0x1C, "I/O Command Set data structure")

/* Feature identifiers, FID (NVMe Base 2.0, "Feature Identifiers") */
#define IWS_NVME_FID_NAMES(X) \
	X(0x01, "Arbitration") \
	X(0x02, "Power Management") \
	X(0x03, "LBA Range Type") \
	X(0x04, "Temperature Threshold") \
	X(0x05, "Error Recovery") \
	X(0x06, "Volatile Write Cache") \
	X(0x07, "Number of Queues") \
	X(0x08, "Interrupt Coalescing") \
	X(0x09, "Interrupt Vector Configuration") \
	X(0x0A, "Write Atomicity Normal") \
	X(0x0B, "Asynchronous Event Configuration") \
	X(0x0C, "Autonomous Power State Transition") \
	X(0x0D, "Host Memory Buffer") \
	X(0x0E, "Timestamp") \
	X(0x0F, "Keep Alive Timer") \
	X(0x10, "Host Controlled Thermal Management") \
	X(0x11, "Non-Operational Power State Config") \
	X(0x12, "Read Recovery Level Config") \
	X(0x13, "Predictable Latency Mode Config") \
	X(0x14, "Predictable Latency Mode Window") \
	X(0x16, "Host Behavior Support") \
	X(0x17, "Sanitize Config") \
	X(0x18, "Endurance Group Event Configuration") \
	X(0x19, "I/O Command Set Profile") \
	X(0x80, "Software Progress Marker") \
	X(0x81, "Host Identifier") \
	X(0x82, "Reservation Notification Mask") \
	X(0x83, "Reservation Persistence") \
	X(0x84, "Namespace Write Protection Config")

/* Log page identifiers, LID (NVMe Base 2.0, "Log Page Identifiers"; 70h NVMe-oF) */
#define IWS_NVME_LID_NAMES(X) \
	X(0x01, "Error Information") \
	X(0x02, "SMART / Health Information") \
	X(0x03, "Firmware Slot Information") \
	X(0x04, "Changed Namespace List") \
	X(0x05, "Commands Supported and Effects") \
	X(0x06, "Device Self-test") \
	X(0x07, "Telemetry Host-Initiated") \
	X(0x08, "Telemetry Controller-Initiated") \
	X(0x09, "Endurance Group Information") \
	X(0x0A, "Predictable Latency Per NVM Set") \
	X(0x0B, "Predictable Latency Event Aggregate") \
	X(0x0C, "Asymmetric Namespace Access") \
	X(0x0D, "Persistent Event Log") \
	X(0x70, "Discovery") \
	X(0x80, "Reservation Notification") \
	X(0x81, "Sanitize Status")

/* Controller properties (NVMe-oF 1.1 "Property Definitions": the register offsets) */
#define IWS_NVME_PROPERTY_NAMES(X) \
	X(0x00, "CAP (Controller Capabilities)") \
	X(0x08, "VS (Version)") \
	X(0x14, "CC (Controller Configuration)") \
	X(0x1C, "CSTS (Controller Status)") \
	X(0x20, "NSSR (NVM Subsystem Reset)")

/* Lookups: NULL when the value has no name. */
const char *iws_rdmap_opcode_name(uint32_t opcode);
const char *iws_term_layer_name(uint32_t layer);
const char *iws_term_etype_name(uint32_t layer, uint32_t etype);
const char *iws_term_errcode_name(uint32_t layer, uint32_t etype, uint32_t code);
const char *iws_aopcode_name(uint32_t aop);
const char *iws_rtr_name(uint32_t rtr);

const char *iws_rtr_short_name(uint32_t rtr);
/* The application a well-known listening port is for (IWS_LISTEN_PORTS),
 * NULL for any other port. */
const char *iws_listen_port_name(uint32_t port);
/* How the initiator was decided: one enum iws_init_evidence value (stream.h). */
const char *iws_init_evidence_name(uint32_t evidence);
/* One IWS_MARKER_DEV_* bit: its contract name / a sentence for findings. */
const char *iws_marker_dev_name(uint32_t bit);
const char *iws_marker_dev_text(uint32_t bit);
const char *iws_rdmap_dev_name(uint32_t bit);
const char *iws_rdmap_dev_text(uint32_t bit);
/* The names of the IWS_OPF_* bits set in flags, comma separated, in buf
 * (len octets, NUL-terminated; cut short if it does not fit). */
const char *iws_op_flags_str(char *buf, size_t len, uint32_t flags);
/* The same for the IWS_NVMEF_* bits of an NVMe command. */
const char *iws_nvme_flags_str(char *buf, size_t len, uint32_t flags);
/* NVMe (see nvme.h for the queue-aware op name). NULL when unnamed. */
const char *iws_nvme_admin_opcode_key(uint32_t opcode);
const char *iws_nvme_admin_opcode_title(uint32_t opcode);
const char *iws_nvme_io_opcode_key(uint32_t opcode);
const char *iws_nvme_io_opcode_title(uint32_t opcode);
const char *iws_nvme_fctype_key(uint32_t fctype);
const char *iws_nvme_fctype_title(uint32_t fctype);
const char *iws_nvme_sct_name(uint32_t sct);
/* The name of a 15-bit status field (CQE DW3 bits 31:17); fabrics: the
 * command was a Fabrics command (its command-specific codes differ). */
const char *iws_nvme_status_name(uint32_t status, int fabrics);
const char *iws_nvme_sgl_type_name(uint32_t type);
const char *iws_nvme_sgl_subtype_name(uint32_t subtype);
const char *iws_nvme_cns_name(uint32_t cns);
const char *iws_nvme_fid_name(uint32_t fid);
const char *iws_nvme_lid_name(uint32_t lid);
const char *iws_nvme_property_name(uint32_t offset);

#ifdef __cplusplus
}
#endif
#endif
