// Secrets cuprobe was given (an API key, the value of an Authorization or
// other credential header) never leave it in a message or a file (issue 39):
// the verb that reads them registers them once, and every stderr line (say,
// the verb's error line) and every file or stdout text that may quote what a
// server answered (bench's report, result files, --save-requests) goes through
// redact_secrets, which writes "***" in their place. A server that echoes the
// key back in an error body cannot make cuprobe write it.
#pragma once

#include <string>
#include <string_view>

namespace cuprobe {

// Remembers `value` (and, for "Scheme token" such as "Bearer sk-...", the token
// alone) as a secret for the rest of the process. Values shorter than 4 bytes
// are not remembered (they would blank out ordinary words).
void add_secret(std::string_view value);

// Whether a header of this name carries a credential: Authorization,
// Proxy-Authorization, Cookie, and any name holding "key", "token", "secret",
// "password" or "auth" (case-insensitive).
bool is_secret_header(std::string_view name);

// `text` with every registered secret replaced by "***"; `text` itself when none is registered.
std::string redact_secrets(std::string text);

}  // namespace cuprobe
