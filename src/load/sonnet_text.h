// The public-domain text bundled for the sonnet workload (compiled in, so the
// installed binary needs no data file).
#pragma once

#include <string_view>

namespace cuprobe {

// Shakespeare's Sonnets 1-37, one verse per line, each line ending in "\n".
std::string_view sonnet_text();

}  // namespace cuprobe
