// Writes a file through a function of an output stream, for the writers of both
// forms (jsonl_writer.cpp, binary_format.cpp): std::runtime_error when the file
// cannot be opened or written.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

namespace gpulin {

template <class Write>
void write_file(const std::string& path, Write&& write) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot open " + path + " for writing");
  write(out);
  out.close();
  if (!out) throw std::runtime_error("error writing " + path);
}

}  // namespace gpulin
