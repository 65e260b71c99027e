#pragma once

#include <stdexcept>
#include <string>

namespace dtb {

// Bad input from a user or a file: a malformed FEN, an impossible position,
// an illegal or ambiguous move. The message says what is wrong and where.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace dtb
