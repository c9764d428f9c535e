// The tritonize command: convert (the compiler), check and bench (front doors to the Python harness).
#include <unistd.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "driver/pipeline.h"
#include "trace/trace.h"

namespace fs = std::filesystem;

namespace {

const char* kUsage =
    "usage: tritonize convert MODEL.py [-o OUT.py] [--class NAME] [--set NAME=VALUE]...\n"
    "                         [--emit=ast|graph|kernels|triton] [--dump-after=PASS]\n"
    "       tritonize check MODEL.py [--set NAME=VALUE]... [harness options]\n"
    "       tritonize bench PATHS... [harness options]   (see python3 -m tritonize.bench --help)\n"
    "       tritonize ops                                 (the PyTorch functions, modules and Tensor methods known)\n";

int usage_error(const std::string& message) {
  std::cerr << "tritonize: error: " << message << "\n" << kUsage;
  return 2;
}

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream os;
  os << in.rdbuf();
  text = os.str();
  return true;
}

// Writes through a temporary file and a rename, so a failed run never leaves a partial output.
bool write_file_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return false;
    out << text;
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

struct ConvertArgs {
  std::string input, output;
  tz::ConvertOptions options;
  std::vector<std::string> passthrough;  // unrecognized options (check/bench hand them to the harness)
};

bool parse_set(const std::string& kv, tz::ConvertOptions& options, std::string& error) {
  size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--set expects NAME=VALUE, got '" + kv + "'";
    return false;
  }
  options.overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
  return true;
}

bool parse_convert_args(const std::vector<std::string>& args, bool allow_unknown, ConvertArgs& out,
                        std::string& error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const std::string& flag, std::string& dst) {
      if (a == flag) {
        if (i + 1 >= args.size()) {
          error = flag + " needs a value";
          return false;
        }
        dst = args[++i];
        return true;
      }
      dst = a.substr(flag.size() + 1);
      return true;
    };
    std::string v;
    if (a == "-o" || a == "--output" || a.rfind("--output=", 0) == 0) {
      if (!value(a == "-o" ? "-o" : "--output", out.output)) return false;
    } else if (a == "--class" || a.rfind("--class=", 0) == 0) {
      if (!value("--class", out.options.class_name)) return false;
    } else if (a == "--set" || a.rfind("--set=", 0) == 0) {
      if (!value("--set", v) || !parse_set(v, out.options, error)) return false;
    } else if (a.rfind("--emit=", 0) == 0 || a == "--emit") {
      if (!value("--emit", v)) return false;
      if (v == "ast") out.options.emit = tz::EmitStage::Ast;
      else if (v == "graph") out.options.emit = tz::EmitStage::Graph;
      else if (v == "kernels") out.options.emit = tz::EmitStage::Kernels;
      else if (v == "triton") out.options.emit = tz::EmitStage::Triton;
      else {
        error = "--emit must be one of ast, graph, kernels, triton (got '" + v + "')";
        return false;
      }
    } else if (a.rfind("--dump-after=", 0) == 0 || a == "--dump-after") {
      if (!value("--dump-after", v)) return false;
      bool known = false;
      std::string names;
      for (const char* const* p = tz::pass_names(); *p; ++p) {
        known = known || v == *p;
        names += std::string(names.empty() ? "" : ", ") + *p;
      }
      if (!known) {
        error = "--dump-after: unknown pass '" + v + "' (passes: " + names + ")";
        return false;
      }
      out.options.dump_after = v;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      if (!allow_unknown) {
        error = "unknown option '" + a + "'";
        return false;
      }
      out.passthrough.push_back(a);
    } else if (out.input.empty()) {
      out.input = a;
    } else if (allow_unknown) {
      out.passthrough.push_back(a);
    } else {
      error = "more than one input file ('" + out.input + "' and '" + a + "')";
      return false;
    }
  }
  if (out.input.empty()) {
    error = "no input file";
    return false;
  }
  return true;
}

// Converts one file; prints diagnostics to stderr. Returns the exit code.
int run_convert(const ConvertArgs& args) {
  tz::SourceFile file;
  file.path = args.input;
  if (!read_file(args.input, file.text)) {
    std::cerr << "tritonize: error: cannot read '" << args.input << "'\n";
    return 1;
  }
  tz::ConvertOptions options = args.options;
  options.dump = [](const std::string& text) { std::cerr << text; };
  tz::ConvertResult r = tz::convert(file, options);
  if (!r.ok) {
    std::cerr << r.diagnostics;
    return 1;
  }
  if (args.output.empty() || args.output == "-") {
    std::cout << r.output;
    return 0;
  }
  if (!write_file_atomically(args.output, r.output)) {
    std::cerr << "tritonize: error: cannot write '" << args.output << "'\n";
    return 1;
  }
  return 0;
}

// The repository root: the harness lives in <root>/python and its venv in <root>/.venv.
fs::path repo_root(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0);
  for (fs::path p = exe.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
    if (fs::exists(p / "python" / "tritonize")) return p;
  }
  return fs::current_path();
}

int exec_python(const fs::path& root, std::vector<std::string> args) {
  std::string python = (root / ".venv" / "bin" / "python").string();
  if (const char* env = std::getenv("TRITONIZE_PYTHON")) python = env;
  else if (!fs::exists(python)) python = "python3";
  std::string path = (root / "python").string();
  if (const char* old = std::getenv("PYTHONPATH")) path += std::string(":") + old;
  setenv("PYTHONPATH", path.c_str(), 1);
  args.insert(args.begin(), python);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(python.c_str(), argv.data());
  std::cerr << "tritonize: error: cannot run '" << python << "': " << std::strerror(errno) << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  std::string error;
  if (command == "ops") {
    if (!args.empty()) return usage_error("ops takes no arguments");
    for (const std::string& name : tz::supported_api()) std::cout << name << "\n";
    return 0;
  }
  if (command == "convert") {
    ConvertArgs ca;
    if (!parse_convert_args(args, false, ca, error)) return usage_error(error);
    return run_convert(ca);
  }
  fs::path root = repo_root(argv[0]);
  std::string self = fs::absolute(fs::path("/proc/self/exe")).string();
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) self = exe.string();
  if (command == "check") {
    ConvertArgs ca;
    if (!parse_convert_args(args, true, ca, error)) return usage_error(error);
    char tmpl[] = "/tmp/tritonize-check-XXXXXX";
    if (!mkdtemp(tmpl)) return usage_error("cannot create a temporary directory");
    ca.output = std::string(tmpl) + "/" + fs::path(ca.input).filename().string();
    int rc = run_convert(ca);
    if (rc != 0) return rc;
    std::vector<std::string> py = {"-m", "tritonize.check", ca.input, ca.output};
    for (auto& [k, v] : ca.options.overrides) {
      py.push_back("--set");
      py.push_back(k + "=" + v);
    }
    py.insert(py.end(), ca.passthrough.begin(), ca.passthrough.end());
    return exec_python(root, py);
  }
  if (command == "bench") {
    std::vector<std::string> py = {"-m", "tritonize.bench", "--tritonize", self};
    py.insert(py.end(), args.begin(), args.end());
    return exec_python(root, py);
  }
  return usage_error("unknown command '" + command + "'");
}
