// libFuzzer target for the whole compiler: arbitrary bytes through parse, trace, passes, lowering and the
// writer. Bad input must come back as diagnostics; a crash, sanitizer report, leak or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "driver/pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tz::SourceFile file{"fuzz.py", std::string(reinterpret_cast<const char*>(data), size)};
  tz::ConvertOptions options;
  tz::ConvertResult result = tz::convert(file, options);
  // Exactly one of output and diagnostics.
  if (result.ok == result.output.empty() && !result.ok) __builtin_trap();
  if (!result.ok && result.diagnostics.empty()) __builtin_trap();
  return 0;
}
