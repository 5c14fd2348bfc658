// Any bytes as a Jepsen etcd log and as a Porcupine kv log: a History the format's
// rules accept, or a FormatError naming the file and line, nothing else. The
// importers read files: each input goes through one temporary file, in memory
// (/dev/shm) where there is one: on disk the writeback was most of the time.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "histories/import_jepsen_etcd.h"
#include "histories/import_porcupine_kv.h"
#include "histories/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpulin;
  static const std::string path = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
                                  "/gpulin_fuzz_import_" + std::to_string(::getpid()) + ".log";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  for (auto import : {&import_jepsen_etcd, &import_porcupine_kv}) {
    try {
      const History h = import(path);
      check_events(h.events, h.source);  // what an importer returns is well-formed
    } catch (const FormatError& e) {
      if (std::string(e.what()).rfind(path + ":", 0) != 0) __builtin_trap();  // names the file
    }
  }
  return 0;
}
