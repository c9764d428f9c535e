// Triton printer: tile IR -> Triton source text. It translates one operator at a time through a table and
// decides nothing.
#pragma once

#include <string>

#include "kernel/tile.h"

namespace tz {

std::string print_kernel(const Kernel& k);

// The order of the printed kernel's parameters: its pointers and integers (in Kernel::params order), then its
// constexprs. Launchers pass arguments in this order.
std::vector<const KernelParam*> signature_order(const Kernel& k);
std::string print_expr(const TExpr* e);

}  // namespace tz
