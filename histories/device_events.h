// The device recorder's layout, shared by the recording code (CUDA contexts) and
// the host side that downloads it: one preallocated append buffer of events and one
// of keys per recording actor (thread block), and one global ticket counter whose
// order is real-time order (docs/design.md, Recording). Plain structs only, so
// host and device code both include this.
#pragma once

#include <cstdint>

namespace gpulin {

// DeviceEvent::kind, numbered as EventKind (histories/history.h).
enum DeviceEventKind : uint32_t {
  kDeviceInv = 0,
  kDeviceRet = 1,
  kDeviceAcq = 2,
  kDeviceRel = 3,
  // The operation's linearization point (lp_rule explicit): t, op and actor only;
  // node, fn, key_off, key_len and is_null are 0. Its ticket is taken at the
  // deciding atomic (the successful CAS, the read of the slab that decided a search),
  // strictly between the op's inv and ret tickets.
  kDeviceLp = 4,
  // A whole hold in one record, written after its release (hold versions with
  // implied acqs, below): its rel (t 0, node, the hold's number in fn), whose acq
  // comes right before it in the actor's log. The readers (the download's
  // assembly, the GPU check) put that acq there; no history holds this kind.
  kDeviceHold = 5,
};

inline constexpr uint32_t kHoldUnnumbered = 0xffffffffu;  // an acq under hold versions (below)

// 16-byte aligned (48 bytes, the layout unchanged): a device append is three
// 16-byte stores, not six 8-byte ones.
struct alignas(16) DeviceEvent {
  uint64_t t;
  int64_t op;
  int64_t node;      // acq, rel
  uint32_t kind;     // DeviceEventKind
  uint32_t fn;       // inv; rel with hold versions: the hold's number on its node (t = 0); acq: kHoldUnnumbered
  uint32_t key_off;  // inv, ret: payload in the actor's key buffer
  uint32_t key_len;
  uint32_t is_null;  // ret: the result is null (else the key_len keys; result_shapes.h reshapes them)
  uint32_t actor;
};

// Passed by value to kernels. Actor b appends to events[b * event_cap ...] and
// keys[b * key_cap ...]; the counts keep counting past the capacity, so that an
// overflow is detected (and its size known) instead of silently truncated.
// `KeyWord` is the recorded key's type, the structure's own (uint32_t or
// uint64_t): a key is stored whole, never narrowed. DeviceRecorderRef, the 32-bit
// form, is what recording code without a wider key names.
template <class KeyWord>
struct BasicDeviceRecorderRef {
  using Key = KeyWord;
  unsigned long long* ticket = nullptr;
  DeviceEvent* events = nullptr;
  uint32_t* event_count = nullptr;  // [actors]
  KeyWord* keys = nullptr;
  uint32_t* key_count = nullptr;    // [actors]
  uint32_t event_cap = 0;
  uint32_t key_cap = 0;
  // Hold versions: with this set (a word per lockable node, all
  // 0 at the start), an acq or rel takes no ticket from the one counter. The
  // holder counts its hold on the node's own word instead (a relaxed increment
  // just before the releasing access, so inside the hold: no other actor touches
  // the word meanwhile) and records its rel with t = 0 and the hold's number in
  // `fn`; its acq, t = 0 and fn = kHoldUnnumbered, takes the number of the actor's
  // next rel of that node. A counted lock (structures/exec/counted_word.h: a
  // heap's root) needs no such word: its hold's number is the count its acquire
  // saw in the lock word (record_acq(node, holds_before)), so nothing is
  // incremented inside the hold; its count must be 0 where the recording starts
  // (a heap reset, with every launch since recorded), else the numbers do not
  // start at 0 and order_hold_versions refuses the history. The holds of one node
  // are then ordered by their numbers, and the download puts every event in an
  // order that respects each actor's program order, each node's holds and the
  // counter's tickets (order_hold_versions). Only for rules that compare holds of
  // ONE node (the root-release rule: the root's holds); a rule that compares holds
  // of different nodes (last-lock) needs the one counter's tickets.
  uint32_t* hold_versions = nullptr;
  // With hold versions: the words cover nodes [0, hold_version_nodes), and the
  // holds of a node at or past it are not recorded at all (no acq, no rel). A heap
  // checked by the root-release rule records node 1's alone (2): the rule compares
  // only those, and every recorded hold costs its holder events and an atomic
  // while the nodes above it wait; numbered by the root's counted word, the root's
  // holds need no atomic at all (what each step saved:
  // bench/results/architecture-notes.md, 1.3-1.4).
  uint64_t hold_version_nodes = 0;
  // With hold versions: each hold is recorded by one record after its release
  // (kDeviceHold), its acq implied right before it, instead of an acq stored
  // inside the hold. Only where the actor records nothing while it holds a
  // recorded node (a heap whose root's holds alone are recorded: inv and ret lie
  // outside them); a hold still open when the operation returns or the actor
  // stops gets its acq stored then (before the ret).
  uint32_t implied_acqs = 0;
};
using DeviceRecorderRef = BasicDeviceRecorderRef<uint32_t>;
using DeviceRecorderRef64 = BasicDeviceRecorderRef<uint64_t>;

}  // namespace gpulin
