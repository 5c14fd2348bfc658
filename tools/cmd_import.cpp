// gpulin import jepsen-etcd|porcupine-kv FILE -o OUT.jsonl
#include <fmt/core.h>

#include "histories/import_jepsen_etcd.h"
#include "histories/import_porcupine_kv.h"
#include "histories/jsonl_writer.h"
#include "tools/commands.h"

namespace gpulin::cli {

void add_import(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string format, file, out;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("import", "convert another tool's log into history format v1");
  sub->add_option("format", a->format, "jepsen-etcd or porcupine-kv")
      ->required()
      ->check(CLI::IsMember({"jepsen-etcd", "porcupine-kv"}));
  sub->add_option("file", a->file, "input log")->required();
  sub->add_option("-o,--out", a->out, "output history (JSON Lines)")->required();
  sub->callback([a, &run] {
    run = [a] {
      try {
        const History h = a->format == "jepsen-etcd" ? import_jepsen_etcd(a->file) : import_porcupine_kv(a->file);
        write_history_file(a->out, h);
        fmt::print("{}: {} operations -> {}\n", a->file, h.ops.size(), a->out);
        return int(kPass);
      } catch (const FormatError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return int(kBadInput);
      }
    };
  });
}

}  // namespace gpulin::cli
