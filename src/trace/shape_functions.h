// Shape and index functions written with existing graph ops: pieces (chunk, split, unbind are slices), F.pad and
// roll (torch.cat's pads of slices, flips and constants), repeat/tile (a reshape of an expand), torch.arange in
// forward (the iota leaf), F.one_hot (a compare with an iota), count_nonzero (a sum of x != 0), and the vector
// products outer/ger (a broadcast multiply), dot and inner (matmul). Each follows PyTorch's argument rules and
// its formula in ATen (cited at each function), with PyTorch's messages for what the user can get wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trace/interp.h"

namespace tz::tracer {

// torch.split with an int: pieces of `split_size` along `dim`, the last one shorter (a tuple of views).
Value t_split(Interp& in, const Value& x, int64_t split_size, int64_t dim, const std::string& name, SourceLoc loc);
// torch.split with a list of sizes (they must add up to the dim's size).
Value t_split_sizes(Interp& in, const Value& x, const std::vector<int64_t>& sizes, int64_t dim, SourceLoc loc);
// torch.chunk: pieces of ceil(size / chunks), so possibly fewer than `chunks`.
Value t_chunk(Interp& in, const Value& x, int64_t chunks, int64_t dim, SourceLoc loc);
Value t_unbind(Interp& in, const Value& x, int64_t dim, SourceLoc loc);
// F.pad: `pad` pairs (before, after) from the last dim backwards; mode "constant" (with `value`; negative pads
// crop), "reflect", "replicate" or "circular".
Value t_pad(Interp& in, const Value& x, const std::vector<int64_t>& pad, const std::string& mode, double value,
            SourceLoc loc);
// torch.roll: dims nullopt rolls the flattened tensor.
Value t_roll(Interp& in, const Value& x, const std::vector<int64_t>& shifts, std::optional<std::vector<int64_t>> dims,
             SourceLoc loc);
// Tensor.repeat (tile = false: at least as many repeats as dims) and torch.tile (fewer repeats are padded with 1).
Value t_repeat(Interp& in, const Value& x, std::vector<int64_t> repeats, bool tile, SourceLoc loc);

// torch.arange in forward(): n values `start + step * i`, computed as ATen's kernels do (see there).
Value t_arange(Interp& in, const Value& start, const Value& step, int64_t n, DType dtype, SourceLoc loc);
// F.one_hot with a known num_classes: int64 [..., num_classes].
Value t_one_hot(Interp& in, const Value& x, int64_t num_classes, SourceLoc loc);
// torch.count_nonzero over dims (all when nullopt): int64.
Value t_count_nonzero(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, SourceLoc loc);
// torch.outer / torch.ger of two 1-D tensors: the products a[i] * b[j], promoted as `*` promotes.
Value t_outer(Interp& in, const Value& a, const Value& b, const std::string& name, SourceLoc loc);
// torch.dot of two 1-D tensors of one dtype.
Value t_dot(Interp& in, const Value& a, const Value& b, const std::string& name, SourceLoc loc);
// torch.inner: the products summed over the last dims, [*a[:-1], *b[:-1]]; a 0-d operand multiplies.
Value t_inner(Interp& in, const Value& a, const Value& b, SourceLoc loc);

// F.pixel_shuffle (upscale) / F.pixel_unshuffle: [*, C * r^2, H, W] <-> [*, C, H * r, W * r], a reshape, a
// permute and a reshape (ATen's math_pixel_shuffle / math_pixel_unshuffle).
Value t_pixel_shuffle(Interp& in, const Value& x, int64_t r, bool unshuffle, SourceLoc loc);
// F.channel_shuffle / nn.ChannelShuffle: [N, C, *] seen as [N, g, C / g, *], the two group dims swapped.
Value t_channel_shuffle(Interp& in, const Value& x, int64_t groups, SourceLoc loc);
// torch.movedim / moveaxis: the dims `source` moved to `destination`, the others keeping their order.
Value t_movedim(Interp& in, const Value& x, std::vector<int64_t> source, std::vector<int64_t> destination,
                SourceLoc loc);

}  // namespace tz::tracer
