// fuse_attention: recognises attention written out by hand (two matmuls around a softmax) and replaces it
// with one attention node, lowered to a flash-attention kernel that never writes the scores to memory.
// After it, every matched chain is gone from the live graph; anything else is left as it was.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

std::unique_ptr<Graph> fuse_attention(const Graph& g);

}  // namespace tz
