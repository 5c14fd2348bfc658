// The compact binary form of a history, beside the JSONL one, with lossless
// conversion both ways (JSONL -> binary -> JSONL gives the writer's text again).
// It exists for GPU histories of millions of operations: fixed-width records read
// with no parsing, and only the inv/ret payloads decoded.
//
// Layout, all integers little-endian:
//
//   offset  size             field
//   0       8                magic "GPULINH1"
//   8       4   u32          H: length of the header text
//   12      H                header, the JSONL header line as jsonl_writer writes it (UTF-8, no newline)
//   12+H    8   u64          N: number of event records
//   20+H    8   u64          P: size of the value pool in bytes
//   28+H    40*N             event records, in t order:
//             +0  u64 t
//             +8  i64 op
//             +16 i64 actor
//             +24 i64 aux     acq/rel: node; inv/ret: byte offset of its payload in the pool; lp: 0
//             +32 u8  kind    0 inv, 1 ret, 2 acq, 3 rel, 4 lp (EventKind)
//             +33 7 bytes     zero
//   28+H+40N P                value pool: the inv/ret payloads, back to back in record order
//                             (each payload starts where the previous one ended):
//                               inv: string f, then value args;  ret: value res
//                             string: u32 length, bytes;  value: u8 tag, then
//                               0 null | 1 false | 2 true | 3 int: i64 | 4 string: string |
//                               5 array: u32 count, values | 6 object: u32 count, (string key, value) pairs
//
// The file ends right after the pool. Nothing in the binary form names source
// lines, so a history read from it has Event::line (and inv_line/ret_line) equal
// to the record index + 1, and a truncated or corrupt record is a FormatError
// with that line; problems before the records (magic, header, counts) use line 0.
// The structural rules of rules.h apply as to a JSONL file.
#pragma once

#include <string>
#include <string_view>

#include "histories/history.h"
#include "histories/key_history.h"

namespace gpulin {

void write_history_binary(const std::string& path, const History& h);
// The same bytes as for expand(h), without building its Values (a GPU history).
void write_history_binary(const std::string& path, const KeyHistory& h);
History read_history_binary(const std::string& path);

// The same, in memory (the bytes of a whole file).
std::string history_to_binary(const History& h);
History read_history_binary_bytes(std::string_view bytes, const std::string& source_name);

// The whole file's bytes; FormatError (line 0) when it cannot be read.
std::string read_file_bytes(const std::string& path);

// True when the file starts with the binary magic.
bool is_binary_history_file(const std::string& path);
// Reads either form, told apart by the magic.
History read_history_any(const std::string& path);

}  // namespace gpulin
