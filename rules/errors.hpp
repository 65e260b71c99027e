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

// A check that ran and found a problem (it has already printed what): the
// program exits with status 1 without a further message.
class VerificationFailed : public std::runtime_error {
public:
    VerificationFailed() : std::runtime_error("verification failed") {}
};

}  // namespace dtb
