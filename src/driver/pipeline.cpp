// The pipeline as a table of contents: parse, trace, decompose, fuse, lower, write.
#include "driver/pipeline.h"

#include "emit/model_writer.h"
#include "emit/triton_printer.h"
#include "frontend/parser.h"
#include "graph/graph.h"
#include "kernel/lower.h"
#include "passes/conv_layout.h"
#include "passes/decompose.h"
#include "passes/fuse.h"
#include "passes/fuse_attention.h"
#include "passes/gemm_align.h"
#include "passes/sink_reshape.h"
#include "passes/split_k.h"
#include "passes/split_reduce.h"
#include "trace/trace.h"

namespace tz {

namespace {

const char* const kPasses[] = {"parse",       "trace",      "fuse_attention", "decompose", "sink_reshape", "split_reduce",
                               "conv_layout", "split_k",    "gemm_align",     "fuse",      "lower",        nullptr};

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string dump_kernels(const Schedule& s, const ForwardPlan& plan) {
  std::string out = dump_schedule(s);
  for (const auto& k : plan.kernels) out += "\n" + print_kernel(k);
  return out;
}

}  // namespace

const char* const* pass_names() { return kPasses; }

ConvertResult convert(const SourceFile& file, const ConvertOptions& options) {
  ConvertResult result;
  auto dump = [&](const char* pass, const std::string& text) {
    if (options.dump_after == pass && options.dump) options.dump(text);
  };
  try {
    ast::AstArena arena;
    Diagnostics diags;
    ast::Module module = parse(file, arena, diags);
    if (diags.has_errors()) {
      result.diagnostics = diags.render();
      return result;
    }
    dump("parse", ast::dump(module));
    if (options.emit == EmitStage::Ast) {
      result.output = ast::dump(module);
      result.ok = true;
      return result;
    }

    TraceOptions trace_options;
    trace_options.class_name = options.class_name;
    trace_options.overrides = options.overrides;
    TraceResult traced = trace(module, trace_options);
    verify(*traced.graph);
    dump("trace", dump_graph(*traced.graph));
    if (options.emit == EmitStage::Graph) {
      result.output = dump_graph(*traced.graph);
      result.ok = true;
      return result;
    }

    std::unique_ptr<Graph> g = fuse_attention(*traced.graph);
    verify(*g);
    dump("fuse_attention", dump_graph(*g));
    g = decompose(*g);
    verify(*g);
    dump("decompose", dump_graph(*g));
    g = sink_reshape(*g);
    verify(*g);
    dump("sink_reshape", dump_graph(*g));
    g = split_reduce(*g);
    verify(*g);
    dump("split_reduce", dump_graph(*g));
    g = conv_layout(*g);
    verify(*g);
    dump("conv_layout", dump_graph(*g));
    g = split_k(*g);
    verify(*g);
    dump("split_k", dump_graph(*g));
    g = gemm_align(*g);
    verify(*g);
    dump("gemm_align", dump_graph(*g));
    Schedule schedule = fuse(std::move(g));
    verify(*schedule.graph);
    dump("fuse", dump_schedule(schedule));

    TileArena tiles;
    LowerOptions lower_options;
    for (const auto& in : traced.graph->inputs) lower_options.input_names.push_back(in.name);
    lower_options.source_name = base_name(file.path);
    ForwardPlan plan = lower(schedule, tiles, lower_options);
    dump("lower", dump_kernels(schedule, plan));
    if (options.emit == EmitStage::Kernels) {
      result.output = dump_kernels(schedule, plan);
      result.ok = true;
      return result;
    }
    result.output = write_model(traced, *schedule.graph, plan, base_name(file.path));
    result.ok = true;
  } catch (const UserError& e) {
    result.diagnostics = format_diagnostic(e.diagnostic());
  } catch (const InternalError& e) {
    result.diagnostics = std::string(e.what()) + "\n";
  }
  return result;
}

}  // namespace tz
