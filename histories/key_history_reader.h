// Reads a keys-only history (models pq, pq-batch, psync-pq) or a keyed one (map,
// set, multimap with integer keys and values) straight into the lean KeyHistory, without one Value per key: the JSONL reader (jsonl_reader.h)
// spends about 100 bytes a key and reads at tens of MB/s; this one spends 8 bytes
// a key and splits the file over all cores.
//
// It accepts exactly what read_history_file / read_history_binary accept and
// gives exactly to_key_history of their result: same events, ops, lines and key
// pool (keys laid out op by op, args then res). Every line it finds unusual is
// handed to the DOM reader, so a malformed file throws the SAME FormatError
// (file:line: message) as read_history_file. Two errors are its own:
//   - a model whose payloads are not key lists (kv, register, bucket-pq, ...):
//     "model X has non-key payloads; use read_history_file", on the header line;
//   - a keys-only model whose args/res hold something else than integers (valid
//     for the DOM reader, which leaves payloads to the models): "args/res must be
//     arrays of integer keys for model X", on the first such line; for a keyed
//     model (whose res may also be one integer or true/false, key_history.h) the
//     same with "args must be arrays of integers, res null, an integer, ...".
#pragma once

#include <string>
#include <string_view>

#include "histories/key_history.h"

namespace gpulin {

// `threads`: how many threads parse the lines, in blocks of about 4 MB (at least
// one block a thread); 0 means std::thread::hardware_concurrency() (fewer for
// small inputs).
KeyHistory read_key_history_file(const std::string& path, unsigned threads = 0);
KeyHistory read_key_history_text(std::string_view text, const std::string& source, unsigned threads = 0);

// Either form, told apart by the binary magic (binary_format.h). The binary form
// is decoded record by record into the KeyHistory, with read_history_binary's
// errors, in `threads` runs of records at once (0: one per 2^20 records, at most
// one per core).
KeyHistory read_key_history_any(const std::string& path, unsigned threads = 0);

}  // namespace gpulin
